//! Device buffers with an element type: the bytes a kernel reads and writes, and the type to
//! write values in and read them back with (integers, IEEE f16/f32/f64, bf16, and the 8-bit
//! floats e4m3 and e5m2 through the core's exact formats, `tcgen05::numerics::Format`).

use tcgen05::numerics::{Exact, Format, Rounding, Value};

use crate::host::Arg;

/// The element type of a buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum DType {
    U8,
    I8,
    U16,
    I16,
    U32,
    I32,
    U64,
    I64,
    F16,
    Bf16,
    F32,
    F64,
    E4m3,
    E5m2,
}

impl DType {
    /// Bytes per element.
    #[must_use]
    pub fn size(self) -> usize {
        match self {
            DType::U8 | DType::I8 | DType::E4m3 | DType::E5m2 => 1,
            DType::U16 | DType::I16 | DType::F16 | DType::Bf16 => 2,
            DType::U32 | DType::I32 | DType::F32 => 4,
            DType::U64 | DType::I64 | DType::F64 => 8,
        }
    }

    /// The core's format of a 16- or 8-bit float type.
    fn format(self) -> Option<Format> {
        match self {
            DType::F16 => Some(Format::F16),
            DType::Bf16 => Some(Format::Bf16),
            DType::E4m3 => Some(Format::E4m3),
            DType::E5m2 => Some(Format::E5m2),
            _ => None,
        }
    }
}

/// A device buffer: its bytes (what the kernel sees, little-endian) and its element type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Buffer {
    /// The element type.
    pub dtype: DType,
    /// The bytes.
    pub bytes: Vec<u8>,
}

/// The value of a decoded float code.
fn value_f64(v: Value) -> f64 {
    match v {
        Value::Zero { neg } => {
            if neg {
                -0.0
            } else {
                0.0
            }
        }
        Value::Finite {
            neg,
            exp,
            sig,
            frac,
        } => {
            let m = f64::from(sig) * 2f64.powi(exp - frac as i32);
            if neg {
                -m
            } else {
                m
            }
        }
        Value::Inf { neg } => {
            if neg {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            }
        }
        Value::NaN => f64::NAN,
        Value::Int(i) => i as f64,
    }
}

impl Buffer {
    /// `len` zero elements.
    #[must_use]
    pub fn zeros(dtype: DType, len: usize) -> Buffer {
        Buffer {
            dtype,
            bytes: vec![0; len * dtype.size()],
        }
    }

    /// Elements from `values`: integers wrapped to the width, floats rounded to nearest even
    /// (NaN as the format's NaN, overflow of e4m3 as NaN: the format has no infinity).
    #[must_use]
    pub fn from_f64(dtype: DType, values: &[f64]) -> Buffer {
        let mut bytes = Vec::with_capacity(values.len() * dtype.size());
        for &x in values {
            let code: u64 = match dtype {
                DType::F32 => u64::from((x as f32).to_bits()),
                DType::F64 => x.to_bits(),
                DType::U8 | DType::U16 | DType::U32 | DType::U64 => x as u64,
                DType::I8 | DType::I16 | DType::I32 | DType::I64 => x as i64 as u64,
                _ => {
                    let f = dtype.format().unwrap_or(Format::F16);
                    let nan = match dtype {
                        DType::Bf16 => 0x7FC0,
                        DType::F16 => 0x7E00,
                        _ => 0x7F,
                    };
                    Exact::from_f64(x)
                        .and_then(|e| f.encode(e, Rounding::NearestEven).ok())
                        .map_or(nan, u64::from)
                }
            };
            bytes.extend_from_slice(&code.to_le_bytes()[..dtype.size()]);
        }
        Buffer { dtype, bytes }
    }

    /// Elements in the buffer.
    #[must_use]
    pub fn len(&self) -> usize {
        self.bytes.len() / self.dtype.size()
    }

    /// Whether the buffer has no element.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Element `i`'s code (its little-endian bits).
    #[must_use]
    pub fn code(&self, i: usize) -> u64 {
        let s = self.dtype.size();
        self.bytes[i * s..(i + 1) * s]
            .iter()
            .rev()
            .fold(0u64, |a, &b| (a << 8) | u64::from(b))
    }

    /// Element `i` as an f64 (exact for every type but 64-bit integers beyond 2^53).
    #[must_use]
    pub fn get(&self, i: usize) -> f64 {
        let c = self.code(i);
        match self.dtype {
            DType::U8 | DType::U16 | DType::U32 | DType::U64 => c as f64,
            DType::I8 => f64::from(c as u8 as i8),
            DType::I16 => f64::from(c as u16 as i16),
            DType::I32 => f64::from(c as u32 as i32),
            DType::I64 => c as i64 as f64,
            DType::F32 => f64::from(f32::from_bits(c as u32)),
            DType::F64 => f64::from_bits(c),
            d => d
                .format()
                .and_then(|f| f.decode(c as u32).ok())
                .map_or(f64::NAN, value_f64),
        }
    }

    /// Every element as an f64.
    #[must_use]
    pub fn to_f64(&self) -> Vec<f64> {
        (0..self.len()).map(|i| self.get(i)).collect()
    }

    /// The kernel argument (the buffer's bytes).
    #[must_use]
    pub fn arg(&self) -> Arg {
        Arg::Buffer(self.bytes.clone())
    }

    /// Takes the bytes of `a` back after a run (a buffer or a tensor map's tensor).
    pub fn read_back(&mut self, a: &Arg) {
        if let Arg::Buffer(b) | Arg::TensorMap(_, b) = a {
            self.bytes.clone_from(b);
        }
    }
}
