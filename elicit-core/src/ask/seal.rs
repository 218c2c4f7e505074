//! The envelope of a sealed `requestState`: XChaCha20-Poly1305 under a key derived from the
//! server's secret with HKDF-SHA256, written as unpadded base64url.
//!
//! `header ‖ nonce ‖ ciphertext ‖ tag`, where the header is a format byte, the key's id (8 bytes,
//! derived from the secret) and the issue time (milliseconds since the Unix epoch, 8 bytes, big-endian). The header
//! is in the clear, so a server can say which key sealed a state and when, and it is
//! authenticated with the rest of the associated data: whatever the caller binds the state to.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{Key, XChaCha20Poly1305, XNonce};
use hkdf::Hkdf;
use sha2::Sha256;

/// The envelope's format.
const FORMAT: u8 = 2;
const ID_LEN: usize = 8;
const HEADER_LEN: usize = 1 + ID_LEN + 8;
const NONCE_LEN: usize = 24;
/// Separates this use of the secret from any other.
const SALT: &[u8] = b"elicit-core/requestState/v2";

/// One key: its id and its cipher.
#[derive(Clone)]
pub(super) struct Sealer {
    id: [u8; ID_LEN],
    cipher: XChaCha20Poly1305,
}

/// Why a state does not open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Refused {
    /// Not an envelope of this format.
    Malformed,
    /// Sealed under a key this server does not hold.
    UnknownKey,
    /// The tag does not verify: altered, or bound to something else.
    DoesNotOpen,
}

/// An opened state: its payload, and when it was issued.
pub(super) struct Opened {
    pub payload: Vec<u8>,
    pub issued: u64,
}

impl Sealer {
    /// The key of `secret`: the same secret gives the same key in every process.
    pub fn derive(secret: &[u8]) -> Sealer {
        let hkdf = Hkdf::<Sha256>::new(Some(SALT), secret);
        let mut key = zeroize::Zeroizing::new([0u8; 32]);
        let mut id = [0u8; ID_LEN];
        // Both lengths are far below HKDF-SHA256's limit of 8,160 bytes.
        let _ = hkdf.expand(b"xchacha20poly1305 key", key.as_mut());
        let _ = hkdf.expand(b"key id", &mut id);
        Sealer {
            id,
            cipher: XChaCha20Poly1305::new(&Key::from(*key)),
        }
    }

    /// Seals `payload` at time `issued`, bound to `context`, under a fresh random nonce. Fails,
    /// saying why, without random bytes or for a payload of gigabytes.
    pub fn seal(&self, payload: &[u8], context: &[u8], issued: u64) -> Result<String, String> {
        let mut nonce = [0u8; NONCE_LEN];
        getrandom::fill(&mut nonce).map_err(|e| format!("no random bytes for a nonce: {e}"))?;
        let header = self.header(issued);
        let aad = [header.as_slice(), context].concat();
        let message = Payload {
            msg: payload,
            aad: &aad,
        };
        let sealed = self
            .cipher
            .encrypt(&XNonce::from(nonce), message)
            .map_err(|_| "the payload is too long to seal".to_owned())?;
        Ok(URL_SAFE_NO_PAD.encode([header.as_slice(), &nonce, &sealed].concat()))
    }

    fn header(&self, issued: u64) -> [u8; HEADER_LEN] {
        let mut header = [0u8; HEADER_LEN];
        header[0] = FORMAT;
        header[1..=ID_LEN].copy_from_slice(&self.id);
        header[1 + ID_LEN..].copy_from_slice(&issued.to_be_bytes());
        header
    }
}

/// Opens `sealed` with whichever of `keys` sealed it, bound to `context`.
pub(super) fn open(keys: &[Sealer], sealed: &str, context: &[u8]) -> Result<Opened, Refused> {
    let bytes = URL_SAFE_NO_PAD
        .decode(sealed)
        .map_err(|_| Refused::Malformed)?;
    if bytes.len() < HEADER_LEN + NONCE_LEN || bytes[0] != FORMAT {
        return Err(Refused::Malformed);
    }
    let (header, rest) = bytes.split_at(HEADER_LEN);
    let (nonce, sealed) = rest.split_at(NONCE_LEN);
    let key = keys
        .iter()
        .find(|key| key.id == header[1..=ID_LEN])
        .ok_or(Refused::UnknownKey)?;
    let aad = [header, context].concat();
    let nonce: [u8; NONCE_LEN] = nonce.try_into().map_err(|_| Refused::Malformed)?;
    let payload = key
        .cipher
        .decrypt(
            &XNonce::from(nonce),
            Payload {
                msg: sealed,
                aad: &aad,
            },
        )
        .map_err(|_| Refused::DoesNotOpen)?;
    let mut issued = [0u8; 8];
    issued.copy_from_slice(&header[1 + ID_LEN..]);
    Ok(Opened {
        payload,
        issued: u64::from_be_bytes(issued),
    })
}
