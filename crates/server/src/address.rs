//! Who a per-address limit counts (docs/security.md): every per-address counter and rate
//! keys on an [`AddressKey`], and this is the one place an address becomes one.
//!
//! An IPv4 address is itself: behind it may sit a whole household, school or carrier
//! (which is why the per-address limits are sized for a crowd). An IPv6 client is given a
//! /64 at least (a home, a phone on a carrier network), and picks any address in it at
//! will, so keying on the whole address gave it 2^64 budgets: an IPv6 address counts by
//! its /64. An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`, what a dual-stack listener sees
//! of an IPv4 client) counts as its IPv4 address, so one client is not two.

use std::fmt;
use std::net::{IpAddr, Ipv6Addr};

/// A client's address as the per-address limits count it: an IPv4 address, or the /64 of
/// an IPv6 one (shown as `2001:db8:1:2::/64`). Built only by [`AddressKey::of`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AddressKey(IpAddr);

/// The bits of an IPv6 address that name its /64.
const SLASH_64: u128 = !0 << 64;

impl AddressKey {
    /// The key `ip` is counted under.
    #[must_use]
    pub fn of(ip: IpAddr) -> AddressKey {
        match ip.to_canonical() {
            IpAddr::V4(v4) => AddressKey(IpAddr::V4(v4)),
            IpAddr::V6(v6) => AddressKey(IpAddr::V6(Ipv6Addr::from(u128::from(v6) & SLASH_64))),
        }
    }
}

impl fmt::Display for AddressKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            IpAddr::V4(v4) => write!(f, "{v4}"),
            IpAddr::V6(v6) => write!(f, "{v6}/64"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(text: &str) -> AddressKey {
        AddressKey::of(text.parse().expect("an address"))
    }

    #[test]
    fn ipv4_is_itself_and_ipv6_is_its_slash_64() {
        assert_eq!(key("203.0.113.9").to_string(), "203.0.113.9");
        assert_ne!(key("203.0.113.9"), key("203.0.113.10"));
        assert_eq!(
            key("2001:db8:1:2:aaaa:bbbb:cccc:dddd").to_string(),
            "2001:db8:1:2::/64"
        );
        // Anything in one /64 is one key; the next /64 is another.
        assert_eq!(
            key("2001:db8:1:2::1"),
            key("2001:db8:1:2:ffff:ffff:ffff:ffff")
        );
        assert_eq!(key("2001:db8:1:2::1"), key("2001:db8:1:2::"));
        assert_ne!(key("2001:db8:1:2::1"), key("2001:db8:1:3::1"));
        assert_ne!(key("2001:db8:1:2::1"), key("2001:db9:1:2::1"));
        assert_eq!(key("::1").to_string(), "::/64");
    }

    #[test]
    fn an_ipv4_mapped_address_counts_as_its_ipv4() {
        assert_eq!(key("::ffff:203.0.113.9"), key("203.0.113.9"));
        assert_eq!(key("::ffff:203.0.113.9").to_string(), "203.0.113.9");
        assert_ne!(key("::ffff:203.0.113.9"), key("::ffff:203.0.113.10"));
        // Not mapped: the deprecated IPv4-compatible form is an IPv6 address like any.
        assert_eq!(key("::203.0.113.9").to_string(), "::/64");
    }
}
