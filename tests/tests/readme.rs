//! The README is a front page that stays true: short, with both set-up commands, every link
//! resolving, and every TOML block naming only real features. Its Rust blocks run as doctests
//! (`tests/src/lib.rs`).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The repository's address, as the workspace's `repository` key gives it.
const REPOSITORY: &str = "https://github.com/elicit-rs/elicit";

/// Links outside the repository, checked by name here and never fetched.
const EXTERNAL: &[&str] = &[
    "https://docs.rs/rmcp",
    "https://docs.rs/schemars",
    "https://docs.rs/elicit-core",
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_owned()
}

fn readme() -> String {
    std::fs::read_to_string(root().join("README.md")).unwrap()
}

/// The README's text outside code blocks, and its code blocks with their language.
fn split(text: &str) -> (String, Vec<(String, String)>) {
    let mut prose = String::new();
    let mut blocks = Vec::new();
    let mut block: Option<(String, String)> = None;
    for line in text.lines() {
        match (&mut block, line.strip_prefix("```")) {
            (None, Some(lang)) => block = Some((lang.trim().to_owned(), String::new())),
            (Some(_), Some(_)) => blocks.push(block.take().unwrap()),
            (Some((_, body)), None) => {
                body.push_str(line);
                body.push('\n');
            }
            (None, None) => {
                prose.push_str(line);
                prose.push('\n');
            }
        }
    }
    assert!(block.is_none(), "a code block is left open");
    (prose, blocks)
}

/// GitHub's anchor for a heading: lower case, spaces to hyphens, other punctuation dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

#[test]
fn it_is_a_front_page_with_both_commands() {
    let text = readme();
    let lines = text.lines().count();
    assert!(lines <= 300, "the README has {lines} lines");
    for command in [
        "cargo run -p elicit-examples --example quickstart",
        "cargo test --workspace",
    ] {
        assert!(
            text.contains(&format!("```sh\n{command}\n```")),
            "{command}"
        );
    }
    for file in ["CHANGELOG.md", "CONTRIBUTING.md"] {
        assert!(root().join(file).is_file(), "{file}");
        assert!(
            text.contains(&format!("{REPOSITORY}/blob/main/{file}")),
            "{file} is linked"
        );
    }
}

#[test]
fn every_link_resolves() {
    let text = readme();
    let (prose, _) = split(&text);
    let anchors: BTreeSet<String> = prose
        .lines()
        .filter_map(|line| line.strip_prefix('#'))
        .map(|heading| anchor(heading.trim_start_matches('#')))
        .collect();
    let link = regex_lite::Regex::new(r"\]\(([^)\s]+)\)|<(https?://[^>\s]+)>").unwrap();
    let mut checked = 0;
    for found in link.captures_iter(&prose) {
        let target = found.get(1).or_else(|| found.get(2)).unwrap().as_str();
        checked += 1;
        if let Some(name) = target.strip_prefix('#') {
            assert!(
                anchors.contains(name),
                "no heading for #{name}: {anchors:?}"
            );
        } else if let Some(rest) = target.strip_prefix(REPOSITORY) {
            let path = rest
                .strip_prefix("/blob/main/")
                .or_else(|| rest.strip_prefix("/tree/main/"))
                .unwrap_or_else(|| panic!("{target} is not a file or folder of main"));
            let path = path.split('#').next().unwrap();
            assert!(
                root().join(path).exists(),
                "{target}: no {path} in the repository"
            );
        } else if target.starts_with("http://") || target.starts_with("https://") {
            assert!(
                EXTERNAL.contains(&target),
                "{target} is not listed as an external link"
            );
        } else {
            panic!(
                "{target} is relative: on the registry's page it breaks; use {REPOSITORY}/blob/main/.."
            );
        }
    }
    assert!(checked >= 8, "{checked} links");
}

#[test]
fn toml_blocks_name_real_features() {
    let manifest = std::fs::read_to_string(root().join("elicit-core/Cargo.toml")).unwrap();
    let features: BTreeSet<&str> = manifest
        .split("[features]")
        .nth(1)
        .unwrap()
        .split("\n[")
        .next()
        .unwrap()
        .lines()
        .filter_map(|line| line.split_once(" = ").map(|(name, _)| name.trim()))
        .filter(|name| !name.starts_with('#'))
        .collect();
    let (_, blocks) = split(&readme());
    let list = regex_lite::Regex::new(r#"features = \[([^\]]*)\]"#).unwrap();
    let mut named = 0;
    for (lang, body) in blocks.iter().filter(|(lang, _)| lang == "toml") {
        // A commented-out alternative is checked as well.
        let lines = body
            .lines()
            .map(|l| l.trim_start().trim_start_matches("# "));
        for line in lines.filter(|l| l.starts_with("elicit-core")) {
            let found = list
                .captures(line)
                .unwrap_or_else(|| panic!("{lang}: {line}"));
            for feature in found[1].split(',').map(|f| f.trim().trim_matches('"')) {
                assert!(
                    features.contains(feature),
                    "no feature {feature:?}: {features:?}"
                );
                named += 1;
            }
            if let Some(path) = line.split("path = \"").nth(1) {
                let path = path.split('"').next().unwrap();
                assert!(path.ends_with("/elicit-core"), "{path}");
            }
        }
    }
    assert!(
        named >= 2,
        "the README's dependency lines name the rmcp feature"
    );
    assert!(
        blocks.iter().any(|(lang, _)| lang == "rust"),
        "the README has code to run"
    );
}

/// The lines of the section under `## {heading}`, up to the next heading, without the blank
/// lines that end it.
fn section(text: &str, heading: &str) -> Vec<String> {
    let mut lines: Vec<String> = text
        .lines()
        .skip_while(|line| *line != format!("## {heading}"))
        .skip(1)
        .take_while(|line| !line.starts_with("## "))
        .map(str::to_owned)
        .collect();
    while lines.last().is_some_and(|line| line.trim().is_empty()) {
        lines.pop();
    }
    lines
}

#[test]
fn the_performance_section_is_short_and_compares_with_peers() {
    let lines = section(&readme(), "Performance");
    assert!(!lines.is_empty(), "no performance section");
    assert!(lines.len() <= 22, "{} lines", lines.len());
    let table: Vec<&String> = lines.iter().filter(|l| l.starts_with('|')).collect();
    let text = table
        .iter()
        .map(|l| l.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    // Beside what a user would pick instead: rmcp's typed path, which checks nothing, and a
    // JSON Schema validator, which checks.
    for peer in [
        "rmcp's typed path",
        "`jsonschema` crate",
        "plain `{action, content}`",
    ] {
        assert!(
            text.contains(peer),
            "the table has no row for {peer}:\n{text}"
        );
    }
    // Every row is one of the figures `benches/README.md` gives with how it was measured.
    let benches = std::fs::read_to_string(root().join("benches/README.md")).unwrap();
    for row in &table {
        assert!(
            benches.lines().any(|line| line == row.as_str()),
            "{row}: not in benches/README.md"
        );
    }
}
