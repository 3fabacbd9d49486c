//! A file as served: its bytes, its type, a validator, and its brotli and gzip forms,
//! made once per content (at the best ratio: the web files are few and fixed, and a phone
//! on a slow line gains more from 10 % fewer bytes than the server loses in one
//! compression) and kept for every later request.

use std::collections::HashMap;
use std::io::Write;
use std::sync::{Arc, LazyLock, Mutex};

use axum::body::Bytes;
use sha2::{Digest, Sha256};

use super::negotiate::Encoding;

/// Smaller than this, a file is sent as it is: compressing saves less than a packet.
const MIN_COMPRESSED_SIZE: usize = 256;

/// One file's representations.
#[derive(Debug)]
pub struct Served {
    pub mime: String,
    /// A weak validator (`W/"…"`, from the content): the same for every coding, which
    /// RFC 9110 allows of weak validators, and which `If-None-Match` compares weakly.
    pub etag: String,
    pub identity: Bytes,
    pub brotli: Option<Bytes>,
    pub gzip: Option<Bytes>,
}

impl Served {
    /// The bytes to send in `encoding`, and the coding they are in (the file as it is
    /// when that coding was not worth making).
    #[must_use]
    pub fn body(&self, encoding: Encoding) -> (Bytes, Encoding) {
        match encoding {
            Encoding::Brotli if self.brotli.is_some() => {
                (self.brotli.clone().unwrap_or_default(), Encoding::Brotli)
            }
            Encoding::Gzip if self.gzip.is_some() => {
                (self.gzip.clone().unwrap_or_default(), Encoding::Gzip)
            }
            _ => (self.identity.clone(), Encoding::Identity),
        }
    }
}

/// Every content served so far, by its name and hash: the release build's files are fixed,
/// so this holds each once; a debug build (which reads the files from disk) adds one for
/// each edited version, which a developer's server can afford.
type Cache = Mutex<HashMap<(String, [u8; 32]), Arc<tokio::sync::OnceCell<Arc<Served>>>>>;
static CACHE: LazyLock<Cache> = LazyLock::new(Cache::default);

/// `content` of type `mime`, named `name` (a path, or a page's kind), as served: compressed
/// the first time on a blocking thread, the same `Arc` afterwards. Concurrent first requests
/// wait for the one compression.
pub async fn served(name: &str, mime: &str, content: Bytes) -> Arc<Served> {
    let hash: [u8; 32] = Sha256::digest(&content).into();
    let cell = {
        let mut cache = CACHE
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        cache.entry((name.to_owned(), hash)).or_default().clone()
    };
    let mime = mime.to_owned();
    cell.get_or_init(|| async move {
        let etag = format!("W/\"{}\"", hex::encode(&hash[..12]));
        let made = {
            let (mime, content) = (mime.clone(), content.clone());
            tokio::task::spawn_blocking(move || make(&mime, &content)).await
        };
        // A compression that panicked leaves the file to be sent as it is.
        let (brotli, gzip) = made.unwrap_or((None, None));
        Arc::new(Served {
            mime,
            etag,
            identity: content,
            brotli,
            gzip,
        })
    })
    .await
    .clone()
}

/// The brotli and gzip forms of a text file big enough to gain, each kept only if smaller.
fn make(mime: &str, content: &[u8]) -> (Option<Bytes>, Option<Bytes>) {
    if !compressible(mime) || content.len() < MIN_COMPRESSED_SIZE {
        return (None, None);
    }
    let smaller = |made: Option<Vec<u8>>| {
        made.filter(|bytes| bytes.len() < content.len())
            .map(Bytes::from)
    };
    (smaller(brotli(content)), smaller(gzip(content)))
}

/// Text: scripts, styles, pages, SVG, JSON. Images and fonts are compressed already.
#[must_use]
pub fn compressible(mime: &str) -> bool {
    let mime = mime.split(';').next().unwrap_or("").trim();
    mime.starts_with("text/")
        || matches!(
            mime,
            "application/javascript" | "application/json" | "image/svg+xml" | "application/xml"
        )
}

/// Brotli's quality: its best in a release build; in a debug build (tests start a server
/// per test, each compressing what its pages load) 5, ten times faster and ~10 % larger.
const BROTLI_QUALITY: i32 = if cfg!(debug_assertions) { 5 } else { 11 };

/// Brotli at [`BROTLI_QUALITY`], with a 4 MiB window (more than any file here).
#[must_use]
pub fn brotli(content: &[u8]) -> Option<Vec<u8>> {
    let params = brotli::enc::BrotliEncoderParams {
        quality: BROTLI_QUALITY,
        lgwin: 22,
        size_hint: content.len(),
        ..Default::default()
    };
    let mut out = Vec::with_capacity(content.len() / 3);
    brotli::BrotliCompress(&mut &content[..], &mut out, &params).ok()?;
    Some(out)
}

/// Gzip at its best (level 9).
#[must_use]
pub fn gzip(content: &[u8]) -> Option<Vec<u8>> {
    let mut encoder = flate2::write::GzEncoder::new(
        Vec::with_capacity(content.len() / 3),
        flate2::Compression::best(),
    );
    encoder.write_all(content).ok()?;
    encoder.finish().ok()
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use super::*;

    #[test]
    fn both_codings_decode_to_the_file() {
        let text = "export const answer = 42;\n".repeat(200);
        let br = brotli(text.as_bytes()).unwrap();
        let mut back = Vec::new();
        brotli::Decompressor::new(&br[..], 4096)
            .read_to_end(&mut back)
            .unwrap();
        assert_eq!(back, text.as_bytes());
        let gz = gzip(text.as_bytes()).unwrap();
        let mut back = Vec::new();
        flate2::read::GzDecoder::new(&gz[..])
            .read_to_end(&mut back)
            .unwrap();
        assert_eq!(back, text.as_bytes());
        assert!(
            br.len() < 100 && gz.len() < 100,
            "{} {}",
            br.len(),
            gz.len()
        );
    }

    #[test]
    fn only_text_big_enough_to_gain_is_compressed() {
        let text = "body { color: black; }\n".repeat(50);
        let (br, gz) = make("text/css", text.as_bytes());
        assert!(br.is_some() && gz.is_some());
        assert_eq!(make("text/css", b"body{}"), (None, None));
        assert_eq!(make("image/png", text.as_bytes()), (None, None));
        // Random bytes do not shrink: the file is sent as it is.
        let mut noise = Vec::new();
        let mut x: u32 = 12345;
        for _ in 0..4096 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            noise.push((x >> 16) as u8);
        }
        assert_eq!(make("text/plain", &noise), (None, None));
        assert!(compressible("text/javascript; charset=utf-8"));
        assert!(compressible("application/javascript"));
        assert!(compressible("image/svg+xml"));
        assert!(!compressible("image/png"));
        assert!(!compressible("font/woff2"));
    }

    #[tokio::test]
    async fn one_content_is_compressed_once() {
        let text = Bytes::from("let x = 1;\n".repeat(100));
        let first = served("test/once.js", "text/javascript", text.clone()).await;
        let again = served("test/once.js", "text/javascript", text).await;
        assert!(Arc::ptr_eq(&first, &again));
        assert!(first.etag.starts_with("W/\"") && first.etag.ends_with('"'));
        assert_eq!(first.etag.len(), 3 + 24 + 1);
        assert_eq!(first.body(Encoding::Identity).1, Encoding::Identity);
        assert_eq!(first.body(Encoding::Brotli).1, Encoding::Brotli);
        assert_eq!(first.body(Encoding::Gzip).1, Encoding::Gzip);
        let other = served(
            "test/once.js",
            "text/javascript",
            Bytes::from("let y = 2;\n".repeat(100)),
        )
        .await;
        assert_ne!(first.etag, other.etag);
    }
}
