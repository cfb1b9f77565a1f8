//! `const` byte-string helpers for the PTX-name parsers (`from_name` of the parameter enums,
//! targets, shapes), usable where `str` methods are not `const`.

/// Whether two byte strings are equal.
pub(crate) const fn bytes_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether `a` starts with `prefix`.
pub(crate) const fn starts_with(a: &[u8], prefix: &[u8]) -> bool {
    if a.len() < prefix.len() {
        return false;
    }
    let mut i = 0;
    while i < prefix.len() {
        if a[i] != prefix[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// `a` without `prefix` when it starts with it, else `a`.
pub(crate) const fn strip_prefix<'a>(a: &'a [u8], prefix: &[u8]) -> &'a [u8] {
    if starts_with(a, prefix) {
        a.split_at(prefix.len()).1
    } else {
        a
    }
}
