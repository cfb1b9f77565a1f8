//! Output shared by every subcommand: colour, JSON text, field tables, problem lines, the report
//! of one run and its exit status ([`svg`]: the picture files); descriptor fields rendered from
//! the core's layout rows (`layout`).
//!
//! Everything is formatted into a `String` first (formatting into a `String` cannot fail on I/O),
//! then written out in one piece; batch mode reuses the same buffer for every value.

mod json;
mod layout;
mod report;
pub mod svg;
mod text;

pub use json::{add_warnings, json_str, problem_json, problems_json2, JsonEsc, Obj};
pub use layout::{
    fields_json, fields_text, given_values, listed_json, listed_text, word_rows, word_values,
};
pub use report::{Cache, Ctx, Fx, Report, Status, REPEAT_CAP};
pub use text::{
    concerns, count, is_byte_field, problem_line, problem_text, problems_compact, push_dec,
    push_hex, ranges, table, verdict, Ascii, BitRange, RawBits, Row, Style,
};
