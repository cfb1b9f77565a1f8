//! The `serde` feature: decoded values, rule rows and sources serialize to JSON with the field
//! names and values of the PTX tables. Expected numbers come from Table 40's formula applied
//! to the raw word here, not from the crate.
#![cfg(feature = "serde")]

use serde_json::{json, to_value};
use tcgen05::diagnostic::Source;
use tcgen05::instruction_descriptor::IDESC_RULES;
use tcgen05::shared_memory_descriptor::SmemDescriptor;
use tcgen05::Target;

/// The README's example: a 128B-swizzled K-major descriptor.
const RAW: u64 = 0x4000_4040_0001_0040;

/// Table 40: a 14-bit field at `lo`, times 16 bytes.
fn bytes_at(raw: u64, lo: u32) -> u64 {
    ((raw >> lo) & 0x3FFF) << 4
}

#[test]
fn decoded_shared_memory_fields_serialize_with_table_40_values() {
    let fields = SmemDescriptor::decode(RAW, Target::Sm100a).fields;
    let v = to_value(fields).expect("serializes");
    assert_eq!(v["start_address"], json!(bytes_at(RAW, 0)));
    assert_eq!(v["leading_byte_offset"], json!(bytes_at(RAW, 16)));
    assert_eq!(v["stride_byte_offset"], json!(bytes_at(RAW, 32)));
    assert_eq!(v["base_offset"], json!((RAW >> 49) & 7));
    // Bits 61-63 = 2: 128-byte swizzling.
    assert_eq!((RAW >> 61) & 7, 2);
    assert_eq!(v["swizzle"], json!("B128"));
    assert_eq!(v["lbo_mode"], json!("Relative"));
}

#[test]
fn rule_rows_and_sources_serialize() {
    let row = to_value(IDESC_RULES[0]).expect("serializes");
    assert_eq!(row["id"], json!(IDESC_RULES[0].id));
    assert!(row["statement"].as_str().is_some_and(|s| !s.is_empty()));
    assert_eq!(
        to_value(Source::Decision(10)).expect("serializes"),
        json!({"Decision": 10})
    );
    assert_eq!(
        to_value(Source::PtxTable(40)).expect("serializes"),
        json!({"PtxTable": 40})
    );
}

/// A numerics rule serializes as it always has (identifier, short name, source, severity,
/// message, in that order), though its row is now the crate's one rule type. The expected text
/// is the shape the derive gave before the rows were merged.
#[test]
fn a_numerics_rule_keeps_its_serialized_shape() {
    use tcgen05::numerics::RuleId;
    assert_eq!(
        serde_json::to_string(&RuleId::BadCode.view()).expect("serializes"),
        r#"{"id":"BadCode","name":"bad-code","source":"PTX ISA 5.2.5 (element formats)","severity":"Error","message":"the code does not decode in its format"}"#
    );
    let v = to_value(RuleId::SatfiniteNotInteger.view()).expect("serializes");
    assert_eq!(v["name"], json!("satfinite-not-integer"));
}
