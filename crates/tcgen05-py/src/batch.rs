//! The NumPy batch paths' native half: many raw descriptors in, one packed record per value out,
//! decoded by the core with the GIL released and the work split over the machine's cores. The
//! Python half (`tcgen05._batch`) checks the array, and views the records as a structured array
//! whose fields are described by [`IDESC_RECORD`] and [`SMEM_RECORD`].

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyByteArray;
use tcgen05::instruction_descriptor::InstructionDescriptor;
use tcgen05::shared_memory_descriptor::{SmemDescriptor, Swizzle};
use tcgen05::{ElementType, Kind, Target};

use crate::idesc::View;
use crate::smem::swizzle_of;
use tcgen05::bits::Meaning;
use tcgen05::instruction_descriptor::{line_fields, row, IdescField};

/// One record field: name, NumPy format (native byte order) and byte offset.
pub type RecordField = (&'static str, &'static str, usize);

/// The record of one instruction descriptor (28 bytes). Types, scale type: an index into
/// `ELEMENT_TYPES` / `SCALE_TYPES`, or -1 when undefined.
pub const IDESC_RECORD: [RecordField; 22] = [
    ("bits", "u4", 0),
    ("valid", "?", 4),
    ("errors", "u1", 5),
    ("warnings", "u1", 6),
    ("d_type", "i1", 7),
    ("a_type", "i1", 8),
    ("b_type", "i1", 9),
    ("m", "u2", 10),
    ("n", "u2", 12),
    ("k", "u2", 14),
    ("sparse", "?", 16),
    ("sparsity_selector", "u1", 17),
    ("saturate", "?", 18),
    ("negate_a", "?", 19),
    ("negate_b", "?", 20),
    ("transpose_a", "?", 21),
    ("transpose_b", "?", 22),
    ("max_shift", "u1", 23),
    ("scale_type", "i1", 24),
    ("sfa_id", "u1", 25),
    ("sfb_id", "u1", 26),
    ("k96", "?", 27),
];

/// Bytes per instruction-descriptor record.
pub const IDESC_SIZE: usize = 28;

/// The record of one shared memory descriptor (32 bytes). Swizzle: an index into `SWIZZLES`
/// (-1 for an undefined code); `lbo_mode`: an index into `LBO_MODES`.
pub const SMEM_RECORD: [RecordField; 10] = [
    ("bits", "u8", 0),
    ("start_address", "u4", 8),
    ("leading_byte_offset", "u4", 12),
    ("stride_byte_offset", "u4", 16),
    ("valid", "?", 20),
    ("errors", "u1", 21),
    ("warnings", "u1", 22),
    ("base_offset", "u1", 23),
    ("lbo_mode", "u1", 24),
    ("swizzle", "i1", 25),
];

/// Bytes per shared-memory-descriptor record.
pub const SMEM_SIZE: usize = 32;

fn type_index(t: Option<ElementType>) -> u8 {
    t.and_then(|t| ElementType::ALL.iter().position(|x| *x == t))
        .and_then(|i| u8::try_from(i).ok())
        .unwrap_or(u8::MAX) // -1 as i1
}

fn count(n: usize) -> u8 {
    u8::try_from(n).unwrap_or(u8::MAX)
}

/// Writes the field bytes (7 to 27) of an instruction-descriptor record.
fn idesc_fields(v: &View, out: &mut [u8]) {
    out[7] = type_index(v.d_type);
    out[8] = type_index(v.a_type);
    out[9] = type_index(v.b_type);
    out[10..12].copy_from_slice(&v.m.to_ne_bytes());
    out[12..14].copy_from_slice(&v.n.to_ne_bytes());
    out[14..16].copy_from_slice(&v.k.unwrap_or(0).to_ne_bytes());
    out[16] = u8::from(v.sparse);
    out[17] = v.sparsity_selector;
    out[18] = u8::from(v.saturate);
    out[19] = u8::from(v.negate_a);
    out[20] = u8::from(v.negate_b);
    out[21] = u8::from(v.transpose_a);
    out[22] = u8::from(v.transpose_b);
    out[23] = v.max_shift;
    out[24] = v.scale_type.map_or(u8::MAX, |s| s as u8);
    out[25] = v.sfa_id;
    out[26] = v.sfb_id;
    out[27] = u8::from(v.k96);
}

/// The record bytes one entry of a kind's line list writes for one value of its bits: at most
/// two (M and N are 16-bit), as (offset, byte). Unused pairs write byte [`K96`], which is
/// written last, so that every patch writes two bytes without a branch.
type Patch = [(u8, u8); 2];

/// The offset of `k96` in an instruction-descriptor record (the last field written).
const K96: u8 = 27;

/// The field bytes of the records of one kind, made ahead from the core's line list (Tables
/// 42-44): for a value whose type codes are undefined (the core then gives no fields), each
/// entry's bytes are looked up by the entry's bits instead of reading its row's meaning for
/// every value. Equal, byte for byte, to writing [`View::of`].
#[derive(Debug)]
pub struct IdescRecords {
    kind: Kind,
    /// The field bytes of `View::default()`, which the entries' patches then change.
    template: [u8; IDESC_SIZE],
    /// Each entry's low bit, mask and one patch per value of its bits; `None` when an entry's
    /// value also depends on bits outside its row (then every value is read through `View`).
    entries: Option<Vec<(u32, u64, Vec<Patch>)>>,
    /// The K bit (Table 44), for `k96`.
    k_row: Option<(u32, u64)>,
}

impl IdescRecords {
    /// The read-ahead records of `kind`.
    pub fn new(kind: Kind) -> IdescRecords {
        let mut template = [0u8; IDESC_SIZE];
        idesc_fields(&View::default(), &mut template);
        let mut list = Vec::new();
        let mut usable = true;
        for l in line_fields(kind) {
            // K is given only with the types (View::set ignores it); its bit is read apart.
            if matches!(l.row.field, IdescField::K) {
                continue;
            }
            let lo = u32::from(l.row.lo);
            let mask = l.row.mask() >> lo;
            let own_bits = !matches!(
                l.row.meaning,
                Meaning::Picked { .. } | Meaning::Gated { .. }
            );
            if !own_bits || mask >= 256 {
                usable = false;
                break;
            }
            let mut patches = Vec::new();
            for bits in 0..=mask {
                let mut v = View::default();
                v.set(l.row.field, l.value(bits << lo));
                let mut r = [0u8; IDESC_SIZE];
                idesc_fields(&v, &mut r);
                let mut p: Patch = [(K96, 0); 2];
                let changed = r
                    .iter()
                    .zip(&template)
                    .enumerate()
                    .filter(|(_, (a, b))| a != b);
                for (n, (o, (&new, _))) in changed.enumerate() {
                    // One field changes at most two bytes (else the reader is not used), at
                    // offsets below IDESC_SIZE; k96 is written apart.
                    if n == p.len() || o == usize::from(K96) {
                        usable = false;
                        break;
                    }
                    p[n] = (o as u8, new);
                }
                patches.push(p);
            }
            list.push((lo, mask, patches));
        }
        let k_row = row(kind, IdescField::K).map(|r| (u32::from(r.lo), r.mask() >> r.lo));
        IdescRecords {
            kind,
            template,
            entries: usable.then_some(list),
            k_row,
        }
    }

    /// Decodes one value into its record.
    fn write(&self, bits: u32, out: &mut [u8]) {
        let d = InstructionDescriptor::decode(bits, self.kind);
        // Counted from the problem set, without building each problem.
        let errors = d.diagnostics.error_count();
        let warnings = d.diagnostics.len() - errors;
        out[0..4].copy_from_slice(&bits.to_ne_bytes());
        out[4] = u8::from(errors == 0);
        out[5] = count(errors);
        out[6] = count(warnings);
        match (&self.entries, d.fields) {
            (Some(entries), None) => {
                let raw = u64::from(bits);
                out[7..].copy_from_slice(&self.template[7..]);
                for (lo, mask, patches) in entries {
                    // The index is at most `mask`, below 256.
                    let [(o0, b0), (o1, b1)] = patches[((raw >> lo) & mask) as usize];
                    out[usize::from(o0)] = b0;
                    out[usize::from(o1)] = b1;
                }
                out[usize::from(K96)] =
                    u8::from(self.k_row.is_some_and(|(lo, m)| (raw >> lo) & m == 1));
            }
            _ => idesc_fields(&View::of(&d), out),
        }
    }
}

/// Decodes one value into its record.
fn smem_record(raw: u64, target: Target, out: &mut [u8]) {
    let d = SmemDescriptor::decode(raw, target);
    // Counted from the problem set, without building each problem.
    let errors = d.diagnostics.error_count();
    let warnings = d.diagnostics.warning_count();
    let f = &d.fields;
    out[0..8].copy_from_slice(&raw.to_ne_bytes());
    out[8..12].copy_from_slice(&f.start_address.to_ne_bytes());
    out[12..16].copy_from_slice(&f.leading_byte_offset.to_ne_bytes());
    out[16..20].copy_from_slice(&f.stride_byte_offset.to_ne_bytes());
    out[20] = u8::from(errors == 0);
    out[21] = count(errors);
    out[22] = count(warnings);
    out[23] = f.base_offset;
    out[24] = f.lbo_mode.code();
    out[25] = swizzle_of(raw)
        .and_then(|s| Swizzle::ALL.iter().position(|x| *x == s))
        .and_then(|i| u8::try_from(i).ok())
        .unwrap_or(u8::MAX);
    out[26..32].fill(0);
}

/// Runs `f(input word, output record)` over every value, split into one contiguous piece per
/// thread (at most `threads`, at least 1).
fn parallel<const W: usize>(
    input: &[u8],
    out: &mut [u8],
    size: usize,
    threads: usize,
    f: impl Fn([u8; W], &mut [u8]) + Sync,
) {
    let n = input.len() / W;
    let threads = threads.clamp(1, n.max(1));
    let per = n.div_ceil(threads).max(1);
    std::thread::scope(|s| {
        for (inp, outp) in input.chunks(per * W).zip(out.chunks_mut(per * size)) {
            let f = &f;
            s.spawn(move || {
                for (word, rec) in inp.chunks_exact(W).zip(outp.chunks_exact_mut(size)) {
                    let mut w = [0u8; W];
                    w.copy_from_slice(word);
                    f(w, rec);
                }
            });
        }
    });
}

fn threads_or_all(threads: Option<usize>) -> usize {
    threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
}

/// Decodes native-endian `u32` values (`data`, a multiple of 4 bytes) under `kind` into
/// `IDESC_SIZE`-byte records, without the GIL.
#[pyfunction]
#[pyo3(signature = (data, kind, threads=None))]
pub fn decode_idesc_records<'py>(
    py: Python<'py>,
    data: &[u8],
    kind: &str,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyByteArray>> {
    let Some(kind) = Kind::from_name(kind) else {
        return Err(PyValueError::new_err(format!("unknown kind {kind:?}")));
    };
    if data.len() % 4 != 0 {
        return Err(PyValueError::new_err(
            "data is not a whole number of u32 values",
        ));
    }
    let threads = threads_or_all(threads);
    let records = IdescRecords::new(kind);
    // The records are written straight into the bytearray that NumPy then views (no copy).
    PyByteArray::new_with(py, data.len() / 4 * IDESC_SIZE, |out| {
        py.detach(|| {
            parallel::<4>(data, out, IDESC_SIZE, threads, |w, rec| {
                records.write(u32::from_ne_bytes(w), rec);
            });
        });
        Ok(())
    })
}

/// Decodes native-endian `u64` values for `target` into `SMEM_SIZE`-byte records, without the
/// GIL.
#[pyfunction]
#[pyo3(signature = (data, target, threads=None))]
pub fn decode_smem_records<'py>(
    py: Python<'py>,
    data: &[u8],
    target: &str,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyByteArray>> {
    let Ok(target) = Target::from_name(target) else {
        return Err(PyValueError::new_err(format!("unknown target {target:?}")));
    };
    if data.len() % 8 != 0 {
        return Err(PyValueError::new_err(
            "data is not a whole number of u64 values",
        ));
    }
    let threads = threads_or_all(threads);
    PyByteArray::new_with(py, data.len() / 8 * SMEM_SIZE, |out| {
        py.detach(|| {
            parallel::<8>(data, out, SMEM_SIZE, threads, |w, rec| {
                smem_record(u64::from_ne_bytes(w), target, rec);
            });
        });
        Ok(())
    })
}
