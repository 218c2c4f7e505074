//! [`JsonText`]: the forms a reply's JSON text arrives in.

/// JSON text as a reply arrives: a `str` or `String`, or bytes (`[u8]`, `Vec<u8>`, `[u8; N]`),
/// which must be UTF-8. Every reader of reply text takes any of them.
///
/// ```
/// use elicit_core::UrlElicitResult;
///
/// let text = r#"{"action":"accept"}"#;
/// assert_eq!(UrlElicitResult::from_json(text)?, UrlElicitResult::Accept);
/// assert_eq!(UrlElicitResult::from_json(text.as_bytes())?, UrlElicitResult::Accept);
/// assert!(UrlElicitResult::from_json(b"\xff").is_err(), "bytes must be UTF-8");
/// # Ok::<(), elicit_core::ElicitError>(())
/// ```
pub trait JsonText: sealed::Sealed {
    /// The text, or bytes still to be checked as UTF-8.
    #[doc(hidden)]
    fn text_or_bytes(&self) -> Result<&str, &[u8]>;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for str {}
    impl Sealed for String {}
    impl Sealed for [u8] {}
    impl Sealed for Vec<u8> {}
    impl<const N: usize> Sealed for [u8; N] {}
    impl<T: Sealed + ?Sized> Sealed for &T {}
}

impl JsonText for str {
    fn text_or_bytes(&self) -> Result<&str, &[u8]> {
        Ok(self)
    }
}

impl JsonText for String {
    fn text_or_bytes(&self) -> Result<&str, &[u8]> {
        Ok(self)
    }
}

impl JsonText for [u8] {
    fn text_or_bytes(&self) -> Result<&str, &[u8]> {
        Err(self)
    }
}

impl JsonText for Vec<u8> {
    fn text_or_bytes(&self) -> Result<&str, &[u8]> {
        Err(self)
    }
}

impl<const N: usize> JsonText for [u8; N] {
    fn text_or_bytes(&self) -> Result<&str, &[u8]> {
        Err(self)
    }
}

impl<T: JsonText + ?Sized> JsonText for &T {
    fn text_or_bytes(&self) -> Result<&str, &[u8]> {
        (**self).text_or_bytes()
    }
}
