//! Reading attributes: our own `#[elicit(..)]` strictly, serde's and schemars' leniently (only
//! the keys that change what a form can be; their own derives report their syntax errors).

use proc_macro2::{Group, TokenTree};
use syn::meta::ParseNestedMeta;
use syn::{Attribute, Expr, ExprLit, Lit, LitStr, Meta, Path, Token};

use crate::ctxt::Ctxt;

/// One key of a foreign attribute: `#[serde(skip)]` gives `skip`, `#[schemars(length(min = 1))]`
/// gives `length`.
pub struct Key {
    /// Which attribute it came from.
    pub attr: Origin,
    pub name: String,
    pub path: Path,
    /// The string literals of its value: `"x"` of `rename = "x"`, and both of
    /// `rename(serialize = "x", deserialize = "y")`.
    pub strings: Vec<LitStr>,
    /// The key as written, with its value: `rename = "x"`, `rename(deserialize = "y")`.
    pub tokens: proc_macro2::TokenStream,
}

/// The derive whose attribute a [`Key`] is in.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    Serde,
    Schemars,
    Validate,
    Garde,
}

impl Origin {
    const ALL: [Origin; 4] = [
        Origin::Serde,
        Origin::Schemars,
        Origin::Validate,
        Origin::Garde,
    ];

    /// The attribute's name: `serde` of `#[serde(..)]`.
    pub fn name(self) -> &'static str {
        match self {
            Origin::Serde => "serde",
            Origin::Schemars => "schemars",
            Origin::Validate => "validate",
            Origin::Garde => "garde",
        }
    }
}

/// The keys of every serde, schemars, validate and garde attribute in `attrs`.
pub fn foreign_keys(attrs: &[Attribute]) -> Vec<Key> {
    let mut keys = Vec::new();
    for attr in attrs {
        let Some(origin) = Origin::ALL
            .into_iter()
            .find(|o| attr.path().is_ident(o.name()))
        else {
            continue;
        };
        // Syntax errors in these attributes are their own derive's to report.
        let _ = attr.parse_nested_meta(|meta| {
            let start = meta.input.cursor();
            let strings = skip_value(&meta)?;
            let end = meta.input.cursor();
            let path = &meta.path;
            let mut tokens = quote::quote!(#path);
            let mut at = start;
            while at < end {
                let Some((token, next)) = at.token_tree() else {
                    break;
                };
                tokens.extend([token]);
                at = next;
            }
            keys.push(Key {
                tokens,
                attr: origin,
                name: meta
                    .path
                    .get_ident()
                    .map(ToString::to_string)
                    .unwrap_or_default(),
                path: meta.path,
                strings,
            });
            Ok(())
        });
    }
    keys
}

/// Consumes a key's value (`= ..` or `(..)`), returning the string literals in it.
fn skip_value(meta: &ParseNestedMeta) -> syn::Result<Vec<LitStr>> {
    if meta.input.peek(Token![=]) {
        let input = meta.value()?;
        if input.peek(LitStr) && (input.peek2(Token![,]) || peek_end(input)) {
            return Ok(vec![input.parse()?]);
        }
        while !input.is_empty() && !input.peek(Token![,]) {
            input.parse::<TokenTree>()?;
        }
    } else if meta.input.peek(syn::token::Paren) {
        let group = meta.input.parse::<Group>()?;
        return Ok(strings_in(group.stream()));
    }
    Ok(Vec::new())
}

/// The string literals of a token stream, at any depth.
fn strings_in(tokens: proc_macro2::TokenStream) -> Vec<LitStr> {
    let mut out = Vec::new();
    for token in tokens {
        match token {
            TokenTree::Literal(lit) => {
                if let Ok(s) = syn::parse2::<LitStr>(TokenTree::Literal(lit).into()) {
                    out.push(s);
                }
            }
            TokenTree::Group(group) => out.extend(strings_in(group.stream())),
            _ => {}
        }
    }
    out
}

fn peek_end(input: syn::parse::ParseStream) -> bool {
    let fork = input.fork();
    fork.parse::<LitStr>().is_ok() && fork.is_empty()
}

/// The doc comment, lines joined with newlines and the one leading space of `/// ` removed.
pub fn doc(attrs: &[Attribute]) -> Option<String> {
    let mut lines = Vec::new();
    for attr in attrs {
        if let Meta::NameValue(nv) = &attr.meta
            && nv.path.is_ident("doc")
            && let Expr::Lit(ExprLit {
                lit: Lit::Str(s), ..
            }) = &nv.value
        {
            let line = s.value();
            lines.push(
                line.strip_prefix(' ')
                    .unwrap_or(&line)
                    .trim_end()
                    .to_owned(),
            );
        }
    }
    let text = lines.join("\n").trim().to_owned();
    (!text.is_empty()).then_some(text)
}

/// `#[elicit(..)]` on a struct or enum.
#[derive(Default)]
pub struct ContainerAttrs {
    pub message: Option<LitStr>,
    pub krate: Option<Path>,
    /// `validate = path`: a `fn(&Self) -> Result<(), Invalid>` run after the schema's rules.
    pub validate: Option<Path>,
    /// `no_auto_titles`: fields without a title keep none, instead of one made from the name.
    pub no_auto_titles: Option<Path>,
    /// `no_bound_hints`: descriptions stay as written, without the bounds appended.
    pub no_bound_hints: Option<Path>,
    /// `enum_names` on a choice enum: its titles go as `enum` + `enumNames` on every version.
    pub enum_names: Option<Path>,
}

/// `#[elicit(..)]` on a field.
#[derive(Default)]
pub struct FieldAttrs {
    /// `not_sensitive = "reason"`: the name looks like a secret but the field is not one.
    pub not_sensitive: Option<LitStr>,
    /// `validate = path`: a `fn(&FieldType) -> Result<(), impl Display>` run after the schema's
    /// rules.
    pub validate: Option<Path>,
}

fn elicit_attrs(attrs: &[Attribute]) -> impl Iterator<Item = &Attribute> {
    attrs.iter().filter(|a| a.path().is_ident("elicit"))
}

/// Records `key` as set, or an error at it when it was set before.
fn once<T>(cx: &Ctxt, slot: &mut Option<T>, meta: &ParseNestedMeta, value: T) {
    if slot.is_some() {
        cx.syn_error(meta.error(format!(
            "duplicate `{}` in #[elicit(..)]",
            meta.path.get_ident().map(ToString::to_string).unwrap_or_default()
        )));
    } else {
        *slot = Some(value);
    }
}

pub fn container(cx: &Ctxt, attrs: &[Attribute]) -> ContainerAttrs {
    let mut out = ContainerAttrs::default();
    for attr in elicit_attrs(attrs) {
        let result = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("message") {
                let s: LitStr = meta.value()?.parse()?;
                once(cx, &mut out.message, &meta, s);
            } else if meta.path.is_ident("crate") {
                let path = path_value(&meta)?;
                once(cx, &mut out.krate, &meta, path);
            } else if meta.path.is_ident("validate") {
                let path = path_value(&meta)?;
                once(cx, &mut out.validate, &meta, path);
            } else if meta.path.is_ident("no_auto_titles") {
                once(cx, &mut out.no_auto_titles, &meta, meta.path.clone());
            } else if meta.path.is_ident("no_bound_hints") {
                once(cx, &mut out.no_bound_hints, &meta, meta.path.clone());
            } else if meta.path.is_ident("enum_names") {
                once(cx, &mut out.enum_names, &meta, meta.path.clone());
            } else {
                return Err(meta.error(format!(
                    "unknown #[elicit] key `{}`; expected `message`, `validate`, `no_auto_titles`, \
                     `no_bound_hints`, `enum_names` or `crate`",
                    path_name(&meta.path)
                )));
            }
            Ok(())
        });
        if let Err(e) = result {
            cx.syn_error(e);
        }
    }
    out
}

pub fn field(cx: &Ctxt, attrs: &[Attribute]) -> FieldAttrs {
    let mut out = FieldAttrs::default();
    for attr in elicit_attrs(attrs) {
        let result = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("not_sensitive") {
                let reason: LitStr = meta.value()?.parse()?;
                if reason.value().trim().is_empty() {
                    return Err(syn::Error::new_spanned(
                        &reason,
                        "`not_sensitive` needs a reason: say why this field is not a secret",
                    ));
                }
                once(cx, &mut out.not_sensitive, &meta, reason);
                Ok(())
            } else if meta.path.is_ident("validate") {
                let path = path_value(&meta)?;
                once(cx, &mut out.validate, &meta, path);
                Ok(())
            } else {
                Err(meta.error(format!(
                    "unknown #[elicit] key `{}` on a field; expected `validate` or `not_sensitive`",
                    path_name(&meta.path)
                )))
            }
        });
        if let Err(e) = result {
            cx.syn_error(e);
        }
    }
    out
}

pub fn variant(cx: &Ctxt, attrs: &[Attribute]) {
    for attr in elicit_attrs(attrs) {
        let result = attr.parse_nested_meta(|meta| {
            Err(meta.error(format!(
                "unknown #[elicit] key `{}` on an enum variant",
                path_name(&meta.path)
            )))
        });
        if let Err(e) = result {
            cx.syn_error(e);
        }
    }
}

/// `key = path::to::item` or `key = "path::to::item"`.
fn path_value(meta: &ParseNestedMeta) -> syn::Result<Path> {
    let value = meta.value()?;
    if value.peek(LitStr) {
        value.parse::<LitStr>()?.parse::<Path>()
    } else {
        value.parse::<Path>()
    }
}

fn path_name(path: &Path) -> String {
    path.segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect::<Vec<_>>()
        .join("::")
}
