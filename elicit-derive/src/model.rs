//! A borrowed model of the derive input, built once; later stages read only this.

use syn::{Data as SynData, DeriveInput, Fields, Ident, Type};

use crate::attr::{self, ContainerAttrs, FieldAttrs, Key, Origin};
use crate::ctxt::Ctxt;

pub struct Container<'a> {
    pub input: &'a DeriveInput,
    pub attrs: ContainerAttrs,
    /// serde and schemars keys on the item.
    pub keys: Vec<Key>,
    pub doc: Option<String>,
    pub data: Data<'a>,
}

pub enum Data<'a> {
    /// A struct with named fields: a form.
    Form(Vec<Field<'a>>),
    /// An enum: a choice.
    Choice(Vec<Variant<'a>>),
    /// A tuple struct, unit struct or union: refused by `check`.
    Unsupported(&'static str),
}

pub struct Field<'a> {
    pub ident: &'a Ident,
    pub ty: &'a Type,
    /// serde, schemars, validate and garde keys on the field.
    pub keys: Vec<Key>,
    pub attrs: FieldAttrs,
}

impl Field<'_> {
    /// Whether serde never reads the field, so it is not part of the form.
    pub fn skipped(&self) -> bool {
        self.keys.iter().any(|k| {
            k.attr == Origin::Serde && (k.name == "skip" || k.name == "skip_deserializing")
        })
    }

    /// Whether serde reads the field with `#[serde(flatten)]`: a part, whose own fields join
    /// the form.
    pub fn flattened(&self) -> bool {
        self.keys
            .iter()
            .any(|k| k.attr == Origin::Serde && k.name == "flatten")
    }

    /// The name serde reads the field under where a `rename` gives it: `rename = "x"`, or the
    /// `deserialize` of `rename(..)`.
    pub fn wire_name(&self) -> Option<String> {
        let key = (self.keys.iter()).find(|k| k.attr == Origin::Serde && k.name == "rename")?;
        match syn::parse2::<syn::Meta>(key.tokens.clone()).ok()? {
            syn::Meta::NameValue(_) => key.strings.first().map(syn::LitStr::value),
            syn::Meta::List(list) => {
                let mut found = None;
                let _ = list.parse_nested_meta(|meta| {
                    let value = meta.value()?.parse::<syn::LitStr>()?;
                    if meta.path.is_ident("deserialize") {
                        found = Some(value.value());
                    }
                    Ok(())
                });
                found
            }
            syn::Meta::Path(_) => None,
        }
    }

    /// The names the field may have on the wire: its identifier and any `rename` given to serde
    /// or schemars, `rename(deserialize = "..")` included. A container `rename_all` changes only
    /// case and separators, which the sensitive-name check ignores anyway.
    pub fn names(&self) -> impl Iterator<Item = String> + '_ {
        let renames = self
            .keys
            .iter()
            .filter(|k| k.name == "rename")
            .flat_map(|k| k.strings.iter().map(syn::LitStr::value));
        std::iter::once(self.ident.to_string().trim_start_matches("r#").to_owned()).chain(renames)
    }
}

pub struct Variant<'a> {
    pub variant: &'a syn::Variant,
    pub keys: Vec<Key>,
}

impl<'a> Container<'a> {
    pub fn from_ast(cx: &Ctxt, input: &'a DeriveInput) -> Container<'a> {
        let data = match &input.data {
            SynData::Struct(s) => match &s.fields {
                Fields::Named(named) => Data::Form(
                    named
                        .named
                        .iter()
                        .filter_map(|f| {
                            Some(Field {
                                ident: f.ident.as_ref()?,
                                ty: &f.ty,
                                keys: attr::foreign_keys(&f.attrs),
                                attrs: attr::field(cx, &f.attrs),
                            })
                        })
                        .collect(),
                ),
                Fields::Unnamed(_) => Data::Unsupported("a tuple struct"),
                Fields::Unit => Data::Unsupported("a unit struct"),
            },
            SynData::Enum(e) => Data::Choice(
                e.variants
                    .iter()
                    .map(|v| {
                        attr::variant(cx, &v.attrs);
                        Variant {
                            variant: v,
                            keys: attr::foreign_keys(&v.attrs),
                        }
                    })
                    .collect(),
            ),
            SynData::Union(_) => Data::Unsupported("a union"),
        };
        Container {
            input,
            attrs: attr::container(cx, &input.attrs),
            keys: attr::foreign_keys(&input.attrs),
            doc: attr::doc(&input.attrs),
            data,
        }
    }

    /// The fields serde reads, in declaration order.
    pub fn form_fields(&self) -> impl Iterator<Item = &Field<'a>> {
        let fields: &[Field] = match &self.data {
            Data::Form(fields) => fields,
            _ => &[],
        };
        fields.iter().filter(|f| !f.skipped())
    }
}
