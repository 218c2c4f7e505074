// A URL with elicit-core's `url` feature off: the error names the feature.
use elicit_core::Elicit;

/// Where is your site?
#[derive(serde::Deserialize, schemars::JsonSchema, Elicit)]
struct Site {
    home: Option<url::Url>,
}

fn main() {}
