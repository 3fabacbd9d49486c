//! Which content coding a client gets, from its `Accept-Encoding` (RFC 9110 12.5.3): brotli
//! or gzip, whichever it weighs higher, brotli on a tie (smaller for the same text), and the
//! file as it is when it accepts neither.

/// A coding the server can send.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    Brotli,
    Gzip,
    Identity,
}

impl Encoding {
    /// The `Content-Encoding` value, `None` for the file as it is.
    #[must_use]
    pub fn header(self) -> Option<&'static str> {
        match self {
            Encoding::Brotli => Some("br"),
            Encoding::Gzip => Some("gzip"),
            Encoding::Identity => None,
        }
    }
}

/// The coding to send for this `Accept-Encoding` (absent: none). Items that do not parse
/// are skipped; a weight of 0 refuses a coding, `*` weighs every coding not named.
/// Identity is the answer when nothing else is acceptable, even if refused: a readable
/// answer serves a client better than a 406.
#[must_use]
pub fn preferred(accept_encoding: Option<&str>) -> Encoding {
    let Some(accept) = accept_encoding else {
        return Encoding::Identity;
    };
    let (mut brotli, mut gzip, mut any) = (None, None, None);
    for item in accept.split(',') {
        let mut parts = item.split(';');
        let coding = parts.next().unwrap_or("").trim();
        let Some(weight) = weight(parts) else {
            continue;
        };
        if coding.eq_ignore_ascii_case("br") {
            brotli = Some(weight);
        } else if coding.eq_ignore_ascii_case("gzip") || coding.eq_ignore_ascii_case("x-gzip") {
            gzip = Some(weight);
        } else if coding == "*" {
            any = Some(weight);
        }
    }
    let brotli = brotli.or(any).unwrap_or(0.0);
    let gzip = gzip.or(any).unwrap_or(0.0);
    if brotli > 0.0 && brotli >= gzip {
        Encoding::Brotli
    } else if gzip > 0.0 {
        Encoding::Gzip
    } else {
        Encoding::Identity
    }
}

/// The item's `q` (1 when absent); `None` when it is not a number from 0 to 1.
fn weight<'a>(params: impl Iterator<Item = &'a str>) -> Option<f32> {
    for param in params {
        let Some((name, value)) = param.split_once('=') else {
            continue;
        };
        if name.trim().eq_ignore_ascii_case("q") {
            let q: f32 = value.trim().parse().ok()?;
            return (0.0..=1.0).contains(&q).then_some(q);
        }
    }
    Some(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brotli_first_then_gzip_by_weight() {
        for (accept, expected) in [
            (Some("gzip, deflate, br, zstd"), Encoding::Brotli),
            (Some("gzip"), Encoding::Gzip),
            (Some("GZIP"), Encoding::Gzip),
            (Some("x-gzip"), Encoding::Gzip),
            (Some("br;q=0.5, gzip;q=0.8"), Encoding::Gzip),
            (Some("br;q=0.8, gzip;q=0.8"), Encoding::Brotli),
            (Some("br;q=0, gzip"), Encoding::Gzip),
            (Some("br;q=0, gzip;q=0"), Encoding::Identity),
            (Some("*"), Encoding::Brotli),
            (Some("*;q=0.5, br;q=0.1"), Encoding::Gzip),
            (Some("identity"), Encoding::Identity),
            (Some("deflate, zstd"), Encoding::Identity),
            (Some(""), Encoding::Identity),
            (None, Encoding::Identity),
        ] {
            assert_eq!(preferred(accept), expected, "{accept:?}");
        }
    }

    #[test]
    fn weights_that_do_not_parse_skip_their_item() {
        for (accept, expected) in [
            (Some("br;q=high, gzip"), Encoding::Gzip),
            (Some("br;q=2, gzip;q=0.1"), Encoding::Gzip),
            (Some("br;q=-1"), Encoding::Identity),
            (Some("br;q=NaN"), Encoding::Identity),
            (Some(";;,,br;;q=1;"), Encoding::Brotli),
            (Some("gzip;level=9"), Encoding::Gzip),
        ] {
            assert_eq!(preferred(accept), expected, "{accept:?}");
        }
    }
}
