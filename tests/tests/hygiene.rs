//! The derive's output resolves no name through the user's scope: it compiles with the prelude's
//! names shadowed, under `#![deny(warnings)]`.

#![deny(warnings)]

mod shadowed {
    #![allow(non_camel_case_types, dead_code)]

    pub struct Result;
    pub struct Ok;
    pub struct Err;
    pub struct Option;
    pub struct Some;
    pub struct None;
    pub struct String;
    pub struct Box;
    pub struct Vec;
    pub struct elicit_core;
    pub struct core;
    pub trait Elicit {}
    pub trait Deserialize {}
    pub trait Into {}
    pub trait From {}
}

#[allow(unused_imports)]
use self::shadowed::*;

/// Pick a color
#[derive(::serde::Deserialize, ::schemars::JsonSchema, ::elicit_core::Elicit)]
pub struct Form {
    pub name: ::std::string::String,
    pub count: ::std::option::Option<u8>,
    pub color: Color,
    pub colors: ::std::vec::Vec<Color>,
}

/// Fill in Generic.
#[derive(::serde::Deserialize, ::schemars::JsonSchema, ::elicit_core::Elicit)]
pub struct Generic<T> {
    pub value: T,
}

#[derive(
    ::std::fmt::Debug,
    ::std::cmp::PartialEq,
    ::serde::Deserialize,
    ::schemars::JsonSchema,
    ::elicit_core::Elicit,
)]
pub enum Color {
    Red,
    Green,
}

#[test]
fn derive_output_is_hygienic() {
    let schema = <Form as ::elicit_core::Elicit>::requested_schema();
    ::std::assert_eq!(schema.properties().len(), 4);
    ::std::assert_eq!(<Form as ::elicit_core::Elicit>::message(), "Pick a color");
    let generic = <Generic<bool> as ::elicit_core::Elicit>::requested_schema();
    ::std::assert_eq!(generic.properties().len(), 1);
    let r = ::elicit_core::ElicitResult::<Form>::from_json(
        r#"{"action":"accept","content":{"name":"x","color":"Green","colors":[]}}"#,
    );
    let form = r.ok().and_then(|r| r.accepted()).expect("valid");
    ::std::assert_eq!(form.color, Color::Green);
    ::std::assert_eq!(form.name.len() + form.colors.len(), 1);
    ::std::assert!(form.count.is_none());
}

#[test]
fn the_schemas_conform() {
    ::elicit_tests::assert_type_conforms::<Form>();
    ::elicit_tests::assert_type_conforms::<Generic<u8>>();
}
