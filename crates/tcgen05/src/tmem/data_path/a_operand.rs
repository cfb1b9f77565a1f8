//! [`ACell`]: where an element of A lives when A is read from Tensor Memory (PTX ISA
//! 9.7.16.10.5).

use super::error::DataPathError;
use super::layouts::DataPathLayout;
use crate::mma::CtaGroup;
use crate::tmem_fragment::BitRange;

/// Where an element of A lives when A is read from Tensor Memory: the copies (CTA, lane
/// offset), the column offset and the bits of the cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ACell {
    /// CTA of the pair.
    pub cta: u32,
    lanes: [u32; 4],
    copies: u32,
    /// Column offset.
    pub column: u32,
    /// The element's bits in the cell.
    pub bits: BitRange,
}

impl ACell {
    /// The lanes that hold the element (one per copy).
    #[must_use]
    pub fn lanes(&self) -> &[u32] {
        let n = if (self.copies as usize) < 4 {
            self.copies as usize
        } else {
            4
        };
        &self.lanes[..n]
    }
}

/// Where `A[m][k]` lives for the forms that read A from Tensor Memory (`[a-tmem]`), with
/// elements in `container_bits`-bit containers packed from bit 0 up in each 32-bit cell (32 for
/// tf32, 16 for f16/bf16, 8 for i8 and the 8-bit containers of f8f6f4 / mxf8f6f4, 4 for
/// mxf4 / mxf4nvf4; PTX ISA 9.7.16.10.4.3, .5). `k` counts stored elements (`K/2` of them for
/// sparse A).
///
/// Rows use the lanes of D's rows. Where D splits N across lanes (B, E: 2x2; G: 1x4) every
/// lane group needs all of A, so A is stored in each: lanes `m'` and `m' + 64` for B (CUTLASS
/// `TmemAllocMode::Duplicated`) and E, `m + 32q` for G (derived the same way; CUTLASS has no
/// `.ws`).
///
/// # Errors
/// [`DataPathError::ElementBits`], [`DataPathError::RowOutOfRange`], and
/// [`DataPathError::KTooLarge`] when `k` falls past the 512 columns of Tensor Memory
/// (PTX ISA 9.7.16.1.1; rules.md R24).
pub const fn a_cell(
    layout: DataPathLayout,
    m: u32,
    k: u32,
    container_bits: u32,
) -> Result<ACell, DataPathError> {
    if !matches!(container_bits, 4 | 8 | 16 | 32) {
        return Err(DataPathError::ElementBits {
            bits: container_bits,
        });
    }
    let rows = layout.m();
    if m >= rows {
        return Err(DataPathError::RowOutOfRange { row: m, rows });
    }
    let per = layout.rows_per_cta();
    let row = m % per;
    let base = layout.row_lane(row);
    let split = layout.column_split();
    let mut lanes = [0u32; 4];
    let mut i = 0;
    while i < split && i < 4 {
        lanes[i as usize] = base + i * per;
        i += 1;
    }
    let per_word = 32 / container_bits;
    if k / per_word >= crate::tensor_memory::TMEM_COLUMNS {
        return Err(DataPathError::KTooLarge { k, container_bits });
    }
    let lo = (k % per_word) * container_bits;
    Ok(ACell {
        cta: m / per,
        lanes,
        copies: split,
        column: k / per_word,
        bits: BitRange::new(lo as u8, (lo + container_bits - 1) as u8),
    })
}

/// Whether an MMA with this M, `.cta_group`, `.ws` and sparsity can read A of
/// `container_bits`-bit containers: 4-bit A belongs to mxf4 / mxf4nvf4 only, whose shapes are
/// M = 128 (`.cta_group::1` dense or sparse, `.cta_group::2` dense) and M = 256
/// (`.cta_group::2`), never `.ws` (PTX ISA 9.7.16.10.1 Table 39; rules.md R16). Other
/// container sizes pass.
///
/// # Errors
/// [`DataPathError::NoFourBitShape`].
pub const fn a_bits_have_shape(
    m: u32,
    cta_group: CtaGroup,
    ws: bool,
    sparse: bool,
    container_bits: u32,
) -> Result<(), DataPathError> {
    if container_bits != 4 {
        return Ok(());
    }
    let ok = !ws
        && matches!(
            (m, cta_group, sparse),
            (128, CtaGroup::One, _) | (128, CtaGroup::Two, false) | (256, CtaGroup::Two, _)
        );
    if ok {
        Ok(())
    } else {
        Err(DataPathError::NoFourBitShape {
            m,
            cta_group,
            ws,
            sparse,
        })
    }
}

/// Whether A with `k` stored elements per row (`k` counts, indices `0..k`) of
/// `container_bits`-bit containers fits the 512 columns of Tensor Memory (PTX ISA 9.7.16.1.1;
/// rules.md R24): `k <= 512 * 32 / container_bits`.
///
/// # Errors
/// [`DataPathError::ElementBits`], [`DataPathError::KTooLarge`].
pub const fn a_k_fits(k: u32, container_bits: u32) -> Result<(), DataPathError> {
    if !matches!(container_bits, 4 | 8 | 16 | 32) {
        return Err(DataPathError::ElementBits {
            bits: container_bits,
        });
    }
    if k > crate::tensor_memory::TMEM_COLUMNS * (32 / container_bits) {
        return Err(DataPathError::KTooLarge { k, container_bits });
    }
    Ok(())
}
