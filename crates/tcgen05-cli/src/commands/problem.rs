//! Problems the command finds itself, before or around the core library's checks. They name a
//! field, a value and a rule source like every problem of the core crate.

use std::fmt;

use tcgen05::diagnostic::{Diagnostic, Severity, Source};
use tcgen05::Kind;

/// A problem found by the command rather than by the core library.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CliError {
    /// A flag's number is larger than the field (or the type that holds it) can be.
    TooWide {
        /// JSON key of the field.
        field: &'static str,
        /// The number given.
        value: u64,
        /// The largest value the field holds.
        max: u64,
        /// Where the field's width comes from.
        source: Source,
    },
    /// `--k` differs from the K that kind and sparsity imply (Table 39; rules.md R15).
    KMismatch {
        /// The K given.
        given: u64,
        /// The K implied.
        implied: u16,
        /// The kind.
        kind: Kind,
        /// Sparse or dense.
        sparse: bool,
    },
    /// `decode idesc` without `--kind`: no kind accepts the value.
    NoKind {
        /// The value.
        bits: u32,
    },
    /// `--num` of `tcgen05.ld/st` that is not one of .x1 .. .x128.
    BadNum {
        /// The repetition count given.
        value: u64,
    },
    /// A flag given without the flag it qualifies, so it changes nothing (a warning).
    NoEffect {
        /// The flag given, as a JSON key (`red_type` for `--red-type`).
        flag: &'static str,
        /// Its value as typed (`true` for a switch).
        given: &'static str,
        /// The flag it needs, with its dashes.
        needs: &'static str,
        /// The rule that ties them.
        source: Source,
    },
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            CliError::TooWide {
                field, value, max, ..
            } => {
                if crate::render::is_byte_field(field) {
                    write!(
                        f,
                        "{field} {value:#x} does not fit its field (at most {max:#x})"
                    )
                } else {
                    write!(f, "{field} {value} does not fit its field (at most {max})")
                }
            }
            CliError::KMismatch {
                given,
                implied,
                kind,
                sparse,
            } => {
                let density = if sparse { "sparse" } else { "dense" };
                write!(
                    f,
                    "K = {given} is not the K of a {density} .kind::{kind} MMA, which is {implied} \
                     (K is implied by kind and sparsity; only K = 96 is stored)"
                )
            }
            CliError::BadNum { value } => write!(
                f,
                ".num .x{value} is invalid: .num must be .x1, .x2, .x4, .x8, .x16, .x32, .x64 or .x128"
            ),
            CliError::NoKind { bits } => write!(
                f,
                "{bits:#010x} is not a valid instruction descriptor under any kind \
                 (f16, tf32, f8f6f4, i8, mxf8f6f4, mxf4, mxf4nvf4)"
            ),
            CliError::NoEffect { flag, needs, .. } => write!(
                f,
                "--{} has no effect without {needs} and is ignored",
                flag.replace('_', "-")
            ),
        }
    }
}

impl Diagnostic for CliError {
    fn field(&self) -> &'static str {
        match *self {
            CliError::TooWide { field, .. } => field,
            CliError::KMismatch { .. } => "k",
            CliError::NoKind { .. } => "kind",
            CliError::BadNum { .. } => "num",
            CliError::NoEffect { flag, .. } => flag,
        }
    }

    fn value(&self) -> u64 {
        match *self {
            CliError::TooWide { value, .. } => value,
            CliError::KMismatch { given, .. } => given,
            CliError::NoKind { bits } => u64::from(bits),
            CliError::BadNum { value } => value,
            CliError::NoEffect { .. } => 1,
        }
    }

    fn source(&self) -> Source {
        match *self {
            CliError::TooWide { source, .. } => source,
            CliError::KMismatch { .. } => Source::Decision(15),
            CliError::NoKind { .. } => Source::Decision(8),
            CliError::BadNum { .. } => Source::PtxSection("9.7.16.8.3"),
            CliError::NoEffect { source, .. } => source,
        }
    }

    fn value_name(&self) -> Option<&'static str> {
        match *self {
            CliError::NoEffect { given, .. } => Some(given),
            _ => None,
        }
    }

    fn severity(&self) -> Severity {
        match self {
            CliError::NoEffect { .. } => Severity::Warning,
            _ => Severity::Error,
        }
    }
}

/// Narrows a flag's number to the type that holds its field, or says it does not fit: values
/// above `limit` are refused, naming `max` as the field's largest value.
pub fn narrow<T: TryFrom<u64>>(
    field: &'static str,
    value: u64,
    limit: u64,
    max: u64,
    source: Source,
) -> Result<T, CliError> {
    let err = CliError::TooWide {
        field,
        value,
        max,
        source,
    };
    if value > limit {
        return Err(err);
    }
    T::try_from(value).map_err(|_| err)
}
