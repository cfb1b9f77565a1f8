//! The checks of the data-movement qualifiers (PTX ISA 9.7.16.2.3, 9.7.16.8, 9.7.16.9; rules.md
//! R23): each shape, multicast and `.num` parsed from its PTX name, `tcgen05.cp`'s shape against
//! its multicast, `.num` against the `tcgen05.ld` / `.st` shape, and the lane of `tcgen05.shift`.
//! They return [`TmemError`], whose variants name the types they check, so they live apart from
//! those types (no file imports the error type that the error type imports).

use super::address::TmemAddress;
use super::cp::{CpMulticast, CpShape};
use super::error::TmemError;
use super::ld_st::{LdStShape, Num};
use super::shape::{DataMovementShape, TmemOp};
use super::shift::ShiftShape;
use super::LANES_PER_WARP;
use crate::bytes::{bytes_eq, strip_prefix};

impl DataMovementShape {
    /// Parses any shape name, with or without the leading dot.
    ///
    /// # Errors
    /// [`TmemError::UnknownShape`] (reported for `tcgen05.ld/st`, the most common use).
    pub const fn from_name(name: &str) -> Result<DataMovementShape, TmemError> {
        let b = strip_prefix(name.as_bytes(), b".");
        let mut i = 0;
        while i < Self::ALL.len() {
            let n = strip_prefix(Self::ALL[i].name().as_bytes(), b".");
            if bytes_eq(b, n) {
                return Ok(Self::ALL[i]);
            }
            i += 1;
        }
        Err(TmemError::UnknownShape { op: TmemOp::LdSt })
    }
}

impl CpShape {
    /// Parses a shape name, with or without the leading dot.
    ///
    /// # Errors
    /// [`TmemError::ShapeOfOtherOp`] for `.31x256b` (the implicit shape of `tcgen05.shift`,
    /// rules.md R23) and for the `tcgen05.ld` / `.st` shapes; [`TmemError::UnknownShape`]
    /// otherwise.
    ///
    /// # Examples
    /// ```
    /// use tcgen05::tensor_memory::CpShape;
    /// assert_eq!(CpShape::from_name("64x128b"), Ok(CpShape::S64x128b));
    /// let e = CpShape::from_name(".31x256b").expect_err("must fail");
    /// assert!(e.to_string().contains("implicit shape of tcgen05.shift"));
    /// ```
    pub const fn from_name(name: &str) -> Result<CpShape, TmemError> {
        match DataMovementShape::from_name(name) {
            Ok(DataMovementShape::Cp(s)) => Ok(s),
            Ok(shape) => Err(TmemError::ShapeOfOtherOp {
                shape,
                wanted: TmemOp::Cp,
            }),
            Err(_) => Err(TmemError::UnknownShape { op: TmemOp::Cp }),
        }
    }
}

impl CpMulticast {
    /// Parses a qualifier, with or without the leading dot; `""` and `"none"` give `None`.
    ///
    /// # Errors
    /// [`TmemError::UnknownMulticast`].
    pub const fn from_name(name: &str) -> Result<CpMulticast, TmemError> {
        let b = strip_prefix(name.as_bytes(), b".");
        if b.is_empty() || bytes_eq(b, b"none") {
            return Ok(CpMulticast::None);
        }
        let mut i = 1;
        while i < CpMulticast::ALL.len() {
            let n = strip_prefix(CpMulticast::ALL[i].name().as_bytes(), b".");
            if bytes_eq(b, n) {
                return Ok(CpMulticast::ALL[i]);
            }
            i += 1;
        }
        Err(TmemError::UnknownMulticast)
    }
}

impl LdStShape {
    /// Parses a shape name, with or without the leading dot.
    ///
    /// # Errors
    /// [`TmemError::ShapeOfOtherOp`] for a `tcgen05.cp` shape or `.31x256b`;
    /// [`TmemError::UnknownShape`] otherwise.
    pub const fn from_name(name: &str) -> Result<LdStShape, TmemError> {
        match DataMovementShape::from_name(name) {
            Ok(DataMovementShape::LdSt(s)) => Ok(s),
            Ok(shape) => Err(TmemError::ShapeOfOtherOp {
                shape,
                wanted: TmemOp::LdSt,
            }),
            Err(_) => Err(TmemError::UnknownShape { op: TmemOp::LdSt }),
        }
    }
}

impl Num {
    /// The `.num` of a repetition count.
    ///
    /// # Errors
    /// [`TmemError::InvalidNum`] unless `count` is a power of two from 1 to 128.
    pub const fn from_count(count: u32) -> Result<Num, TmemError> {
        let mut i = 0;
        while i < Num::ALL.len() {
            if Num::ALL[i].count() as u32 == count {
                return Ok(Num::ALL[i]);
            }
            i += 1;
        }
        Err(TmemError::InvalidNum { num: count })
    }

    /// Parses `.x4`, `x4` (or any other `.num`).
    ///
    /// # Errors
    /// [`TmemError::InvalidNum`] (value 0 when the name holds no number).
    pub const fn from_name(name: &str) -> Result<Num, TmemError> {
        let b = strip_prefix(name.as_bytes(), b".");
        let mut i = 0;
        while i < Num::ALL.len() {
            let n = strip_prefix(Num::ALL[i].name().as_bytes(), b".");
            if bytes_eq(b, n) {
                return Ok(Num::ALL[i]);
            }
            i += 1;
        }
        Err(TmemError::InvalidNum {
            num: parse_count(strip_prefix(b, b"x")),
        })
    }
}

impl ShiftShape {
    /// Parses `.31x256b` (with or without the dot).
    ///
    /// # Errors
    /// [`TmemError::ShapeOfOtherOp`] for the `tcgen05.ld` / `.st` / `.cp` shapes;
    /// [`TmemError::UnknownShape`] otherwise.
    pub const fn from_name(name: &str) -> Result<ShiftShape, TmemError> {
        match DataMovementShape::from_name(name) {
            Ok(DataMovementShape::Shift(s)) => Ok(s),
            Ok(shape) => Err(TmemError::ShapeOfOtherOp {
                shape,
                wanted: TmemOp::Shift,
            }),
            Err(_) => Err(TmemError::UnknownShape { op: TmemOp::Shift }),
        }
    }

    /// Checks the address operand of `tcgen05.shift`: its lane must be a multiple of 32
    /// (PTX ISA 9.7.16.9.3). `tcgen05.shift` exists on the `a` targets only
    /// ([`Target::supports_shift`](crate::Target::supports_shift)).
    ///
    /// # Errors
    /// [`TmemError::ShiftLaneNotAligned`].
    pub const fn validate_address(self, taddr: TmemAddress) -> Result<(), TmemError> {
        if taddr.lane() % LANES_PER_WARP == 0 {
            Ok(())
        } else {
            Err(TmemError::ShiftLaneNotAligned { lane: taddr.lane() })
        }
    }
}

/// Checks the pairing of a `tcgen05.cp` shape and `.multicast` qualifier (PTX ISA 9.7.16.9.2;
/// rules.md R23): `.64x128b` requires `.warpx2::02_13` or `.warpx2::01_23`, `.32x128b`
/// requires `.warpx4`, and `.128x256b`, `.4x256b`, `.128x128b` take no qualifier.
///
/// # Errors
/// [`TmemError::CpMulticastMismatch`].
///
/// # Examples
/// ```
/// use tcgen05::tensor_memory::{validate_cp, CpMulticast, CpShape};
/// assert!(validate_cp(CpShape::S32x128b, CpMulticast::Warpx4).is_ok());
/// assert!(validate_cp(CpShape::S64x128b, CpMulticast::None).is_err());
/// assert!(validate_cp(CpShape::S128x256b, CpMulticast::Warpx4).is_err());
/// ```
pub const fn validate_cp(shape: CpShape, multicast: CpMulticast) -> Result<(), TmemError> {
    let allowed = shape.allowed_multicasts();
    let mut i = 0;
    while i < allowed.len() {
        if allowed[i] as u8 == multicast as u8 {
            return Ok(());
        }
        i += 1;
    }
    Err(TmemError::CpMulticastMismatch { shape, multicast })
}

/// The decimal number in `digits`, or 0 when it is empty, holds another character, or exceeds
/// `u32`.
const fn parse_count(digits: &[u8]) -> u32 {
    if digits.is_empty() {
        return 0;
    }
    let mut v: u32 = 0;
    let mut i = 0;
    while i < digits.len() {
        let c = digits[i];
        if !c.is_ascii_digit() {
            return 0;
        }
        v = match v.checked_mul(10) {
            Some(x) => match x.checked_add((c - b'0') as u32) {
                Some(y) => y,
                None => return 0,
            },
            None => return 0,
        };
        i += 1;
    }
    v
}

/// 32-bit registers per thread of `tcgen05.ld` / `tcgen05.st` with `shape` and `num`
/// (Table 49 for `.ld`, the same Table 50 for `.st`; `.pack::16b` / `.unpack::16b` do not change
/// it).
///
/// | `.num` | `.16x32bx2`, `.16x64b`, `.32x32b` | `.16x128b` | `.16x256b` |
/// |---|---|---|---|
/// | `.x1` ... `.x32` | 1 ... 32 | 2 ... 64 | 4 ... 128 |
/// | `.x64` | 64 | 128 | invalid |
/// | `.x128` | 128 | invalid | invalid |
///
/// # Errors
/// [`TmemError::NumTooLargeForShape`] for the invalid cells.
///
/// # Examples
/// ```
/// use tcgen05::tensor_memory::{registers_per_thread, LdStShape, Num};
/// assert_eq!(registers_per_thread(LdStShape::S32x32b, Num::X128), Ok(128));
/// assert_eq!(registers_per_thread(LdStShape::S16x128b, Num::X4), Ok(8));
/// assert!(registers_per_thread(LdStShape::S16x128b, Num::X128).is_err());
/// ```
pub const fn registers_per_thread(shape: LdStShape, num: Num) -> Result<u16, TmemError> {
    if num.count() > shape.max_num().count() {
        return Err(TmemError::NumTooLargeForShape { shape, num });
    }
    Ok(shape.registers_per_num() * num.count() as u16)
}
