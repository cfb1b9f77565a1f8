//! What each fuzz target checks, as plain functions of the input bytes.
//!
//! The libFuzzer targets (`fuzz_targets/*.rs`, `cargo +nightly fuzz run <target>`) call these,
//! and so does the stable test `crates/tcgen05-cli/tests/fuzz_corpus.rs`, which runs every
//! committed corpus input through them on any toolchain. Each function panics when the code under
//! test panics or breaks one of the properties written next to it.

use std::fmt::Write as _;
use std::io::Cursor;

use tcgen05::canonical_layout::{AtomOrder, SwizzleAnchor};
use tcgen05::check::{check, Options};
use tcgen05::instruction_descriptor::InstructionDescriptor;
use tcgen05::mma::{ElementType, Kind, MaxShift, ScaleType};
use tcgen05::ptx_reader::{self, MAX_PROBLEMS};
use tcgen05::shared_memory_descriptor::{LboMode, SmemDescriptor, SmemField, Swizzle};
use tcgen05::tensor_memory::{CpMulticast, CpShape, DataMovementShape, LdStShape, Num, ShiftShape};
use tcgen05::zero_column_mask::{
    column_mask, solve, ColumnMask, SolveOptions, ZeroColumnMask, ZmaskFields,
};
use tcgen05::Target;
use tcgen05_cli::args::{number, value};
use tcgen05_cli::commands::{batch, idesc, smem as cli_smem, zmask as cli_zmask};
use tcgen05_cli::render as out;

/// The first `N` bytes of `data` (zero-padded) and the rest.
fn take<const N: usize>(data: &[u8]) -> ([u8; N], &[u8]) {
    let mut head = [0u8; N];
    let n = data.len().min(N);
    head[..n].copy_from_slice(&data[..n]);
    (head, &data[n..])
}

/// Shared-memory descriptor decoder: 8 bytes of value, 1 byte choosing the target.
///
/// Checks: `from_bits` agrees with `decode`'s verdict; a valid value's decoded fields encode back
/// to exactly the same bits; every accessor of a valid descriptor agrees with the decoded fields.
pub fn smem(data: &[u8]) {
    let (raw, rest) = take::<8>(data);
    let raw = u64::from_le_bytes(raw);
    let target = Target::ALL[usize::from(rest.first().copied().unwrap_or(0)) % Target::ALL.len()];
    let d = SmemDescriptor::decode(raw, target);
    assert_eq!(d.raw, raw);
    let n = d.diagnostics.iter().count();
    assert!(
        d.is_valid() || n > 0,
        "invalid without a diagnostic: {raw:#x}"
    );
    match SmemDescriptor::from_bits(raw, target) {
        Ok(desc) => {
            assert!(d.is_valid(), "from_bits accepted {raw:#x}, decode did not");
            assert_eq!(desc.bits(), raw);
            assert_eq!(desc.fields(), d.fields);
            let again = SmemDescriptor::try_new(d.fields, target).unwrap_or_else(|e| {
                panic!("{raw:#x} decodes valid, its fields do not encode: {e}")
            });
            assert_eq!(again.bits(), raw, "decode -> encode changed {raw:#x}");
            assert_eq!(desc.start_address(), d.fields.start_address);
            assert_eq!(desc.leading_byte_offset(), d.fields.leading_byte_offset);
            assert_eq!(desc.stride_byte_offset(), d.fields.stride_byte_offset);
            assert_eq!(desc.swizzle(), d.fields.swizzle);
            assert_eq!(desc.lbo_mode(), d.fields.lbo_mode);
            assert_eq!(desc.base_offset(), d.fields.base_offset);
        }
        Err(e) => {
            assert!(
                !d.is_valid(),
                "from_bits refused {raw:#x} ({e}), decode did not"
            );
            assert_eq!(d.first_error(), Some(e));
        }
    }
    let _ = format!("{raw:#x} {}", d.fields.swizzle);
}

/// Instruction-descriptor decoder under every kind: 4 bytes of value.
///
/// Checks, for each kind: `from_bits` agrees with `decode`; a valid value's fields encode back to
/// the same bits; `valid_kinds` lists exactly the kinds under which the value is valid; every
/// diagnostic formats.
pub fn idesc(data: &[u8]) {
    let (raw, _) = take::<4>(data);
    let bits = u32::from_le_bytes(raw);
    let kinds = InstructionDescriptor::valid_kinds(bits);
    for kind in Kind::ALL {
        let d = InstructionDescriptor::decode(bits, kind);
        assert_eq!((d.bits, d.kind), (bits, kind));
        let mut text = String::new();
        for p in d.diagnostics.iter() {
            let _ = write!(text, "{p}; ");
        }
        let ok = InstructionDescriptor::from_bits(bits, kind);
        assert_eq!(ok.is_ok(), d.is_valid(), "{bits:#x} under {kind}: {text}");
        assert_eq!(
            kinds.contains(kind),
            d.is_valid(),
            "valid_kinds({bits:#x}), {kind}"
        );
        if let Ok(desc) = ok {
            let f = d.fields.expect("a valid value has fields");
            assert_eq!(desc.fields(), Some(f));
            let again = f
                .encode()
                .unwrap_or_else(|e| panic!("{bits:#x} valid under {kind}, fields refused: {e}"));
            assert_eq!(again.bits(), bits, "decode -> encode under {kind}");
            assert_eq!(again.kind(), kind);
        }
    }
}

/// Zero-column-mask decoder with M and N: 8 bytes of value, 2 of M, 2 of N, 1 of maximum shift.
///
/// M is taken from {32, 64, 128} or raw (by the low bit of the shift byte), so that both the shapes
/// of Table 45 and any u16 are reached. Checks: a value valid for M and N (no error) wraps, encodes
/// back to the same bits, generates a column mask of width N, and `solve` finds a descriptor that
/// generates the same mask.
pub fn zmask(data: &[u8]) {
    let (head, _) = take::<13>(data);
    let raw = u64::from_le_bytes([
        head[0], head[1], head[2], head[3], head[4], head[5], head[6], head[7],
    ]);
    let m_raw = u16::from_le_bytes([head[8], head[9]]);
    let n_raw = u16::from_le_bytes([head[10], head[11]]);
    let sel = head[12];
    let (m, n) = if sel & 1 == 0 {
        // Shapes close to Table 45's: M in {32, 64, 128}, N a multiple of 8 up to 256.
        ([32, 64, 128][usize::from(m_raw % 3)], (n_raw % 33) * 8)
    } else {
        (m_raw, n_raw)
    };
    let max_shift = match (sel >> 1) & 7 {
        c @ 0..=3 => MaxShift::from_code(c),
        _ => None,
    };
    let plain = ZeroColumnMask::decode(raw);
    let d = ZeroColumnMask::decode_for(raw, m, n, max_shift);
    assert_eq!(plain.fields, d.fields);
    assert_eq!(ZmaskFields::from_raw(raw), d.fields);
    let any_error = d.diagnostics.iter().any(|e| e.is_error());
    for e in d.diagnostics.iter() {
        let _ = e.to_string();
    }
    let zm = ZeroColumnMask::from_bits_unchecked(raw);
    let mask = zm.column_mask(m, n);
    if any_error {
        return;
    }
    let z = ZeroColumnMask::from_bits(raw)
        .unwrap_or_else(|e| panic!("{raw:#x} valid for M={m} N={n}, from_bits refused: {e}"));
    assert_eq!(z.bits(), raw);
    let again = ZeroColumnMask::try_new(d.fields)
        .unwrap_or_else(|e| panic!("{raw:#x}: fields refused: {e}"));
    assert_eq!(again.bits(), raw, "decode -> encode changed {raw:#x}");
    let mask = mask.unwrap_or_else(|e| panic!("{raw:#x} valid for M={m} N={n}, no mask: {e}"));
    assert_eq!(mask.width(), n);
    let solved = solve(m, n, &mask, SolveOptions::DEFAULT)
        .unwrap_or_else(|e| panic!("{raw:#x} makes {mask} for M={m} N={n}, solve fails: {e}"));
    let regenerated = column_mask(&solved, m, n)
        .unwrap_or_else(|e| panic!("solve's answer for {mask} has no mask: {e}"));
    assert_eq!(regenerated, mask, "solve's answer generates another mask");
}

/// Zero-column-mask text parsers (`ColumnMask::parse_bits`, `ColumnMask::parse_hex`): byte 0
/// chooses the width for `parse_hex`, the rest is the text (when UTF-8).
///
/// Checks: a parsed mask prints (`write_bits`) to digits that parse back to the same mask; its
/// words hold no bit at or above its width; `parse_hex` gives the mask whose words the hex digits
/// spell, and agrees with `parse_bits` on the same value.
pub fn zmask_text(data: &[u8]) {
    let (w, rest) = take::<1>(data);
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let width = u16::from(w[0]) + u16::from(w[0] >> 7) * 0x80; // 0..=255 and a few above 256
    if let Ok(m) = ColumnMask::parse_bits(text) {
        check_mask(&m);
        let mut s = String::new();
        m.write_bits(&mut s).expect("writing to a String");
        assert_eq!(s.len(), usize::from(m.width()));
        assert_eq!(ColumnMask::parse_bits(&s), Ok(m), "{text:?} -> {s}");
        let mut hex = String::new();
        for word in m.words().iter().rev() {
            let _ = write!(hex, "{word:016x}");
        }
        assert_eq!(
            ColumnMask::parse_hex(&hex, m.width()),
            Ok(m),
            "{text:?} as hex {hex}"
        );
    }
    if let Ok(m) = ColumnMask::parse_hex(text, width) {
        assert_eq!(m.width(), width);
        check_mask(&m);
        let mut s = String::new();
        m.write_bits(&mut s).expect("writing to a String");
        if width > 0 {
            assert_eq!(ColumnMask::parse_bits(&s), Ok(m), "{text:?} -> {s}");
        }
    }
}

/// A mask's words hold nothing at or above its width, and `bit` agrees with the words.
fn check_mask(m: &ColumnMask) {
    let words = m.words();
    for col in 0..256u16 {
        let set = words[usize::from(col / 64)] >> (col % 64) & 1 == 1;
        if col >= m.width() {
            assert!(!set, "bit {col} set beyond width {}", m.width());
        } else {
            assert_eq!(m.bit(col), set);
        }
    }
    assert_eq!(ColumnMask::from_words(words, m.width()), Ok(*m));
    assert_eq!(
        u32::from(m.count_ones()),
        words.iter().map(|w| w.count_ones()).sum::<u32>()
    );
}

/// The command's number and name parsers: byte 0 chooses the width for numbers, the rest is the
/// text.
///
/// Numbers: `number::parse` agrees with an independent reading (`u64::from_str_radix` on the
/// digits without `_`); the operand and list parsers agree with it. Names: every name parser of
/// the library and of the command, when it accepts a text, accepts the canonical name of what it
/// returned and returns the same thing again; the value parsers without canonical names (layout
/// and PTX qualifiers, pairs, registers) only must not panic.
pub fn numbers_names(data: &[u8]) {
    let (w, text) = take::<1>(data);
    let bits = [8, 16, 32, 64][usize::from(w[0] & 3)];
    let got = number::parse(text, bits).ok();
    assert_eq!(
        got,
        reference_number(text, bits),
        "{:?} in {bits} bits",
        text.escape_ascii()
    );
    if let Err(number::NumError::BadDigit { byte, .. }) = number::parse(text, bits) {
        assert!(text.contains(&byte));
    }
    let Ok(s) = std::str::from_utf8(text) else {
        return;
    };
    if let Ok(number::Operand::Value(v)) = number::operand_smem(s) {
        assert_eq!(Some(v), reference_number(text, 64));
    }
    if let Ok(number::Operand::Value(v)) = number::operand32(s) {
        assert_eq!(Some(v), reference_number(text, 32));
    }
    if let Ok(list) = number::arg_list4(s) {
        let items: Vec<&str> = s.trim_ascii().split(',').collect();
        assert!(items.len() <= 4);
        for (i, item) in items.iter().enumerate() {
            assert_eq!(Some(list[i]), reference_number(item.as_bytes(), 64));
        }
    }
    let _ = number::arg_u64(s);

    // Names, library and command.
    if let Some(k) = Kind::from_name(s) {
        assert_eq!(Kind::from_name(k.name()), Some(k));
    }
    if let Some(t) = ElementType::from_name(s) {
        assert_eq!(ElementType::from_name(t.name()), Some(t));
    }
    if let Some(t) = ScaleType::from_name(s) {
        assert_eq!(ScaleType::from_name(t.name()), Some(t));
    }
    if let Some(x) = Swizzle::from_name(s) {
        assert_eq!(Swizzle::from_name(x.name()), Some(x));
    }
    if let Some(x) = LboMode::from_name(s) {
        assert_eq!(LboMode::from_name(x.name()), Some(x));
    }
    if let Some(x) = SmemField::from_name(s) {
        assert_eq!(SmemField::from_name(x.name()), Some(x));
    }
    if let Some(x) = AtomOrder::from_name(s) {
        assert_eq!(AtomOrder::from_name(x.name()), Some(x));
    }
    if let Some(x) = SwizzleAnchor::from_name(s) {
        assert_eq!(SwizzleAnchor::from_name(x.name()), Some(x));
    }
    if let Ok(t) = Target::from_name(s) {
        assert_eq!(Target::from_name(t.name()), Ok(t));
    }
    if let Ok(x) = LdStShape::from_name(s) {
        assert_eq!(LdStShape::from_name(x.name()), Ok(x));
    }
    if let Ok(x) = Num::from_name(s) {
        assert_eq!(Num::from_name(x.name()), Ok(x));
    }
    if let Ok(x) = CpShape::from_name(s) {
        assert_eq!(CpShape::from_name(x.name()), Ok(x));
    }
    if let Ok(x) = CpMulticast::from_name(s) {
        assert_eq!(CpMulticast::from_name(x.name()), Ok(x));
    }
    if let Ok(x) = ShiftShape::from_name(s) {
        assert_eq!(ShiftShape::from_name(x.name()), Ok(x));
    }
    if let Ok(x) = DataMovementShape::from_name(s) {
        assert_eq!(DataMovementShape::from_name(x.name()), Ok(x));
    }
    // The command reads target names in any case (value::parse_target lowercases them).
    if let Ok(value::TargetArg(Ok(t))) = value::parse_target(s) {
        assert_eq!(
            Target::from_name(&s.trim_ascii().to_ascii_lowercase()),
            Ok(t)
        );
    }
    if let Ok(k) = value::parse_kind(s) {
        assert_eq!(value::parse_kind(k.name()), Ok(k));
    }
    if let Ok(t) = value::parse_type(s) {
        assert_eq!(value::parse_type(t.name()), Ok(t));
    }
    if let Ok(t) = value::parse_scale(s) {
        assert_eq!(value::parse_scale(t.name()), Ok(t));
    }
    if let Ok(x) = value::parse_swizzle(s) {
        assert_eq!(value::parse_swizzle(x.name()), Ok(x));
    }
    if let Ok(x) = value::parse_lbo_mode(s) {
        assert_eq!(value::parse_lbo_mode(x.name()), Ok(x));
    }
    if let Ok(x) = value::parse_max_shift(s) {
        assert_eq!(Some(u64::from(x.rows())), reference_number(text, 64));
    }
    if value::parse_cta_group(s).is_ok() || value::parse_bit(s).is_ok() {
        assert!(matches!(s.trim_ascii(), "0" | "1" | "2"));
    }
    // The parsers that `ptx`, `tmem` and `layout` share: the same name back, or no panic.
    if let Ok(t) = value::parse_operand_type(s) {
        assert_eq!(value::parse_type(t.name()), Ok(t));
    }
    if let Ok(x) = value::parse_ldst_shape(s) {
        assert_eq!(value::parse_ldst_shape(x.name()), Ok(x));
    }
    if let Ok(x) = value::parse_cp_shape(s) {
        assert_eq!(value::parse_cp_shape(x.name()), Ok(x));
    }
    if let Ok(x) = value::parse_multicast(s) {
        assert_eq!(value::parse_multicast(x.name()), Ok(x));
    }
    if let Ok(x) = value::parse_reading(s) {
        assert_eq!(value::parse_reading(x.name()), Ok(x));
    }
    let _ = (
        value::parse_major(s),
        value::parse_ab(s),
        value::parse_order(s),
        value::parse_anchor(s),
        value::parse_range(s),
        value::parse_box(s),
        value::parse_pair(s),
        value::parse_version(s),
        value::parse_mma_scale_vec(s),
        value::parse_collector(s),
        value::parse_sf_scale_vec(s),
        value::parse_sf_operand(s),
        number::parse_num(s),
        number::value_or_reg(s, number::IDESC),
    );
}

/// An independent reading of a number as the command documents it: blanks around, `0x`/`0X` then
/// hexadecimal digits, or decimal digits; `_` anywhere after the prefix; at most `bits` bits.
fn reference_number(text: &[u8], bits: u32) -> Option<u64> {
    let t = std::str::from_utf8(text)
        .ok()?
        .trim_matches(|c: char| c.is_ascii_whitespace());
    let (digits, radix) = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(rest) => (rest, 16),
        None => (t, 10),
    };
    let digits: String = digits.chars().filter(|&c| c != '_').collect();
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let v = u64::from_str_radix(&digits, radix).ok()?;
    (bits >= 64 || v >> bits == 0).then_some(v)
}

/// The command's batch reader and decoders: byte 0 chooses the decoder (smem, idesc, zmask), its
/// options and `--json`; the rest is standard input.
///
/// Checks: the batch ends without an input/output error; there is exactly one result line per
/// input line; with `--json` every line is one JSON object; the exit status is 2 exactly when a
/// line is unreadable (reported on standard error), as the policy in `batch.rs` says.
pub fn batch(data: &[u8]) {
    let (sel, input) = take::<1>(data);
    let sel = sel[0];
    let json = sel & 0x80 != 0;
    let ctx = out::Ctx {
        json,
        out: out::Style::new(false),
        err: out::Style::new(false),
    };
    let input = input.to_vec();
    let lines = input.split(|&b| b == b'\n').count()
        - usize::from(input.ends_with(b"\n"))
        - usize::from(input.is_empty());
    let mut stdout = Vec::new();
    let mut stderr = Vec::new();
    let status = match sel % 3 {
        0 => {
            let t = Target::ALL[usize::from(sel >> 2) % Target::ALL.len()];
            batch::run(
                move || cli_smem::Batch::new(t),
                Cursor::new(input),
                &mut stdout,
                &mut stderr,
                ctx,
            )
        }
        1 => {
            let kind = match usize::from(sel >> 2) % (Kind::ALL.len() + 1) {
                0 => None,
                i => Some(Kind::ALL[i - 1]),
            };
            batch::run(
                move || idesc::Batch::new(kind, None),
                Cursor::new(input),
                &mut stdout,
                &mut stderr,
                ctx,
            )
        }
        _ => {
            let shape = match (sel >> 2) & 3 {
                0 => None,
                1 => Some(cli_zmask::Shape { m: 128, n: 64 }),
                2 => Some(cli_zmask::Shape { m: 64, n: 256 }),
                _ => Some(cli_zmask::Shape { m: 32, n: 8 }),
            };
            let max_shift = MaxShift::from_code((sel >> 4) & 3);
            batch::run(
                move || cli_zmask::Batch::new(shape, max_shift),
                Cursor::new(input),
                &mut stdout,
                &mut stderr,
                ctx,
            )
        }
    };
    let status = status.expect("a batch over memory has no input/output error");
    let out_text = String::from_utf8(stdout).expect("batch output is UTF-8");
    let err_text = String::from_utf8(stderr).expect("batch errors are UTF-8");
    assert_eq!(
        out_text.lines().count(),
        lines,
        "one result line per input line; stderr: {err_text}"
    );
    assert!(out_text.is_empty() || out_text.ends_with('\n'));
    if json {
        for line in out_text.lines() {
            let v: serde_json::Value =
                serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
            assert!(v.is_object(), "not an object: {line}");
        }
    }
    let unreadable = err_text.lines().any(|l| l.starts_with("error: line "));
    assert_eq!(
        status == out::Status::Usage,
        unreadable,
        "exit status {} with stderr: {err_text}",
        status.code()
    );
}

/// The PTX reader and `tcgen05 check`: the input is a PTX module (any bytes).
///
/// Checks: every instruction's opcode (when it has one) lies inside its text and its text inside the input, with a
/// line number within the input; the problems kept stay within `MAX_PROBLEMS`; `check` reports
/// at most as many instructions as were read and returns the same reading problems as the reader.
pub fn ptx(data: &[u8]) {
    let module = ptx_reader::read(data);
    let lines = data.iter().filter(|&&b| b == b'\n').count() + 1;
    let span = data.as_ptr_range();
    let mut read = 0usize;
    for i in module.instructions() {
        read += 1;
        let t = i.text.as_bytes().as_ptr_range();
        assert!(
            span.start <= t.start && t.end <= span.end,
            "text outside input"
        );
        // An instruction without an opcode (`@%p;`) is kept with "" and a bad-operand problem.
        if i.opcode.is_empty() {
            assert!(!module.problems.is_empty() || module.problems_dropped > 0);
        } else {
            let o = i.opcode.as_bytes().as_ptr_range();
            assert!(
                t.start <= o.start && o.end <= t.end,
                "opcode outside its text"
            );
        }
        assert!(i.line >= 1 && (i.line as usize) <= lines, "line {}", i.line);
        assert!(i.column >= 1);
        let _ = (i.base(), i.qualifiers().count());
    }
    assert!(module.problems.len() <= MAX_PROBLEMS);
    for p in &module.problems {
        let _ = p.to_string();
        assert!(
            p.line >= 1 && (p.line as usize) <= lines,
            "problem line {}",
            p.line
        );
    }
    for target in [None, Some(Target::Sm100a), Some(Target::Sm103a)] {
        let report = check(
            data,
            &Options {
                target,
                ..Options::default()
            },
        );
        assert!(report.instructions.len() <= read);
        assert_eq!(report.read_problems, module.problems);
        assert_eq!(report.read_problems_dropped, module.problems_dropped);
        assert_eq!(report.statements, module.statements);
        for r in &report.instructions {
            for f in r.errors().chain(r.warnings()) {
                let _ = f.rule_id();
            }
        }
        let _ = (report.errors(), report.warnings(), report.unreadable());
    }
}
