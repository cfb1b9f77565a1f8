//! Whether a block-scaled MMA consumes, for every row and K block, the scale factor the user
//! meant: the chain from the scale tensor in global memory ([`GlobalSfLayout`]) through the
//! tensor copies that bring it to shared memory ([`TensorCopyBox`], `crate::tensor_copy`),
//! the `tcgen05.cp` instructions that move it to Tensor Memory (read through their shared
//! memory descriptor as a K-major canonical layout of bytes, and written to the lanes of
//! [`cp_row`], as the emulator's `tcgen05.cp` does), to the Tensor Memory cell the MMA reads
//! ([`SfLayout::locate`], PTX ISA 9.7.16.10.7).
//!
//! The check traces positions, not values: each shared-memory byte remembers which global byte
//! the last copy put there, each Tensor Memory byte which shared-memory byte the last
//! `tcgen05.cp` read, and each (row, K block) the MMA consumes is followed back to the global
//! byte and the element of the user's tensor that sits there. The answer is
//! [`ChainAgreement::Agree`] or the first (row, K block), in the order of the MMAs, then rows,
//! then K blocks, whose path ends anywhere but at the intended element.

use alloc::collections::BTreeMap;
use alloc::vec::Vec;
use core::fmt;

use crate::canonical_layout::{ElementStorage, LayoutError, MatrixLayout, Operand};
use crate::data_path::{DataPathError, SfLayout};
use crate::layout::scale_factors::{GlobalSfLayout, ScaleFactorError, SfIndex};
use crate::mma::{ElementType, Major};
use crate::shared_memory_descriptor::SmemDescriptor;
use crate::tensor_copy::{TensorCopyBox, TensorCopyError};
use crate::tensor_memory::{CpMulticast, CpShape, TmemAddress};
use crate::tmem_fragment::{cp_row, cp_rows, FragmentError};

/// One tensor copy of scale-factor bytes: the global tensor seen as a 2-D tensor of bytes with
/// rows of `pitch` bytes starting at byte `base`, of which the box at its tile origin
/// (`origin_inner` bytes into a row, `origin_outer` rows down) lands in CTA `cta`'s shared
/// memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SfTensorCopy {
    /// The CTA whose shared memory receives the box.
    pub cta: u32,
    /// Byte of the global scale tensor where the 2-D view starts.
    pub base: u64,
    /// Bytes per row of the 2-D view (the tensor map's global stride).
    pub pitch: u64,
    /// The box (storage: bytes, `inner` in bytes).
    pub copy: TensorCopyBox,
}

/// One `tcgen05.cp` of scale factors: shape, multicast, source descriptor and destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SfCp {
    /// `.cta_group::1` (1) or `::2` (2): the copy runs in CTAs `0..ctas`, each from its own
    /// shared memory.
    pub ctas: u32,
    /// The shape.
    pub shape: CpShape,
    /// The multicast qualifier.
    pub multicast: CpMulticast,
    /// The source's shared memory descriptor.
    pub desc: SmemDescriptor,
    /// The destination Tensor Memory address.
    pub taddr: TmemAddress,
}

/// One block-scaled MMA's consumption of one operand's scale factors: where they sit in Tensor
/// Memory and which element of the user's tensor each (index, K block) should be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SfMma {
    /// The placement (operand, data-path layout, scale vector, N, SF id).
    pub layout: SfLayout,
    /// The scale-factor Tensor Memory address operand (`[sfa]` / `[sfb]`).
    pub taddr: TmemAddress,
    /// Batch of the user's tensor.
    pub batch: u32,
    /// Row of the user's tensor that the MMA's index 0 is.
    pub row_start: u32,
    /// K block of the user's tensor that the MMA's K block 0 is.
    pub k_block_start: u32,
}

/// A Tensor Memory byte: CTA, lane, column, byte of the cell.
pub type TmemByte = (u32, u32, u32, u32);

/// The path of one consumed scale factor, stage by stage (`None` where the chain breaks).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SfPath {
    /// The Tensor Memory byte the MMA reads.
    pub tmem: TmemByte,
    /// The shared-memory byte the `tcgen05.cp` read for it (`None`: no cp wrote it).
    pub smem: Option<u32>,
    /// The global byte the tensor copy put there (`None`: no copy wrote it).
    pub global: Option<u64>,
    /// The element at that global byte (`None`: a padding byte, or the chain broke earlier).
    pub element: Option<SfIndex>,
}

/// The answer of [`check_chain`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChainAgreement {
    /// Every consumed scale factor is the intended one.
    Agree {
        /// (MMA, index, K block, copy) reads checked.
        reads: u64,
    },
    /// The first consumed scale factor that is not the intended one.
    Differs {
        /// Which MMA of the list.
        mma: usize,
        /// Row of A (scale_A) or column of B (scale_B) within the MMA.
        index: u32,
        /// K block within the MMA.
        k_block: u32,
        /// The element meant (`None`: past the tensor's rows or K blocks, where any byte will do,
        /// so never reported).
        intended: Option<SfIndex>,
        /// Where the consumed byte came from.
        path: SfPath,
    },
}

/// A problem with a piece of the chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ChainError {
    /// A tensor copy box (index in the list).
    Copy(usize, TensorCopyError),
    /// A copy's 2-D view reaches past the global tensor.
    CopyOutsideTensor(usize, ScaleFactorError),
    /// A `tcgen05.cp`'s descriptor or shape (index in the list).
    CpLayout(usize, LayoutError),
    /// A `tcgen05.cp`'s shape and multicast (index in the list).
    CpShape(usize, FragmentError),
    /// An MMA's scale-factor placement (index in the list).
    Mma(usize, DataPathError),
}

impl fmt::Display for ChainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChainError::Copy(i, e) => write!(f, "tensor copy {i}: {e}"),
            ChainError::CopyOutsideTensor(i, e) => write!(
                f,
                "tensor copy {i} reads global byte {}: {e}",
                crate::diagnostic::Diagnostic::value(e)
            ),
            ChainError::CpLayout(i, e) => write!(f, "tcgen05.cp {i}: {e}"),
            ChainError::CpShape(i, e) => write!(f, "tcgen05.cp {i}: {e}"),
            ChainError::Mma(i, e) => write!(f, "mma {i}: {e}"),
        }
    }
}

/// The whole chain of one operand's scale factors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SfChain {
    /// The user's tensor in global memory.
    pub global: GlobalSfLayout,
    /// The tensor copies, in program order.
    pub copies: Vec<SfTensorCopy>,
    /// The `tcgen05.cp` instructions, in program order.
    pub cps: Vec<SfCp>,
    /// The MMAs that consume the scale factors.
    pub mmas: Vec<SfMma>,
}

/// The byte storage tensor copies and `tcgen05.cp` move scale factors in.
fn byte_storage() -> ElementStorage {
    match ElementStorage::of(ElementType::E4m3, None) {
        Ok(s) => s,
        Err(_) => unreachable!("e4m3 has a storage"),
    }
}

impl SfChain {
    /// Shared-memory byte (CTA, address) -> global byte, as the copies leave it.
    fn shared_memory(&self) -> Result<BTreeMap<(u32, u32), u64>, ChainError> {
        let mut smem = BTreeMap::new();
        for (i, c) in self.copies.iter().enumerate() {
            if let Some(e) = c.copy.validate().get(0) {
                return Err(ChainError::Copy(i, e));
            }
            for o in 0..c.copy.outer {
                for n in 0..c.copy.inner {
                    let Some(at) = c.copy.address(n, o) else {
                        continue;
                    };
                    let g = c.base
                        + u64::from(c.copy.origin_outer + o) * c.pitch
                        + u64::from(c.copy.origin_inner + n);
                    if g >= self.global.bytes() {
                        return Err(ChainError::CopyOutsideTensor(
                            i,
                            ScaleFactorError::OffsetOutOfRange {
                                offset: g,
                                bytes: self.global.bytes(),
                            },
                        ));
                    }
                    smem.insert((c.cta, at.address), g);
                }
            }
        }
        Ok(smem)
    }

    /// Tensor Memory byte -> shared-memory address, as the `tcgen05.cp`s leave it.
    fn tensor_memory(&self) -> Result<BTreeMap<TmemByte, u32>, ChainError> {
        let mut tmem = BTreeMap::new();
        for (i, cp) in self.cps.iter().enumerate() {
            let rows = cp_rows(cp.shape);
            let row_bytes = cp.shape.columns_per_lane() * 4;
            let op = Operand::new(byte_storage(), Major::K, rows, row_bytes);
            let src = MatrixLayout::try_new(cp.desc, op).map_err(|e| ChainError::CpLayout(i, e))?;
            for r in 0..rows {
                let row =
                    cp_row(cp.shape, cp.multicast, r).map_err(|e| ChainError::CpShape(i, e))?;
                for b in 0..row_bytes {
                    let at = src.address(r, b).map_err(|e| ChainError::CpLayout(i, e))?;
                    for cta in 0..cp.ctas {
                        for &lane in row.lanes() {
                            let key = (
                                cta,
                                cp.taddr.lane() + u32::from(lane),
                                cp.taddr.column() + b / 4,
                                b % 4,
                            );
                            tmem.insert(key, at.address);
                        }
                    }
                }
            }
        }
        Ok(tmem)
    }

    /// The element meant for MMA index `index`, K block `k`: `None` past the tensor.
    fn intended(&self, m: &SfMma, index: u32, k: u32) -> Option<SfIndex> {
        let row = m.row_start.checked_add(index)?;
        let k_block = m.k_block_start.checked_add(k)?;
        let i = SfIndex {
            batch: m.batch,
            row,
            k_block,
        };
        self.global.offset(i).ok().map(|_| i)
    }
}

/// One scale factor an MMA reads: which, the element meant, and where the byte came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SfRead {
    /// Which MMA of the list.
    pub mma: usize,
    /// Row of A (scale_A) or column of B (scale_B) within the MMA.
    pub index: u32,
    /// K block within the MMA.
    pub k_block: u32,
    /// The element meant (`None`: past the tensor).
    pub intended: Option<SfIndex>,
    /// Where the byte came from.
    pub path: SfPath,
}

impl SfRead {
    /// Whether the byte read is the one meant (any byte will do past the tensor).
    #[must_use]
    pub fn agrees(&self) -> bool {
        self.intended.is_none() || self.path.element == self.intended
    }
}

/// Calls `visit` on every Tensor Memory read of every MMA (MMAs, then indices, then K blocks,
/// then CTAs and lane copies) until it returns `false`; gives the reads visited.
fn walk(chain: &SfChain, visit: &mut dyn FnMut(SfRead) -> bool) -> Result<u64, ChainError> {
    let smem = chain.shared_memory()?;
    let tmem = chain.tensor_memory()?;
    let mut reads = 0u64;
    for (mi, m) in chain.mmas.iter().enumerate() {
        for index in 0..m.layout.extent() {
            for k in 0..m.layout.vec().count() {
                let cell = m
                    .layout
                    .locate(index, k)
                    .map_err(|e| ChainError::Mma(mi, e))?;
                let intended = chain.intended(m, index, k);
                let ctas: &[u32] = if cell.both_ctas { &[0, 1] } else { &[cell.cta] };
                for &cta in ctas {
                    for &lane in cell.lanes() {
                        let t = (
                            cta,
                            m.taddr.lane() + lane,
                            m.taddr.column() + cell.column,
                            cell.byte,
                        );
                        reads += 1;
                        let read = SfRead {
                            mma: mi,
                            index,
                            k_block: k,
                            intended,
                            path: trace(chain, &smem, &tmem, t),
                        };
                        if !visit(read) {
                            return Ok(reads);
                        }
                    }
                }
            }
        }
    }
    Ok(reads)
}

/// Every Tensor Memory read of every MMA of `chain`, with its path (for pictures and reports).
///
/// # Errors
/// A piece of the chain that is itself invalid ([`ChainError`]).
pub fn chain_reads(chain: &SfChain) -> Result<Vec<SfRead>, ChainError> {
    let mut all = Vec::new();
    walk(chain, &mut |r| {
        all.push(r);
        true
    })?;
    Ok(all)
}

/// Follows every scale factor each MMA of `chain` consumes back to the user's tensor.
///
/// # Errors
/// A piece of the chain that is itself invalid ([`ChainError`]).
pub fn check_chain(chain: &SfChain) -> Result<ChainAgreement, ChainError> {
    let mut first = None;
    let reads = walk(chain, &mut |r| {
        if r.agrees() {
            return true;
        }
        first = Some(r);
        false
    })?;
    Ok(match first {
        None => ChainAgreement::Agree { reads },
        Some(r) => ChainAgreement::Differs {
            mma: r.mma,
            index: r.index,
            k_block: r.k_block,
            intended: r.intended,
            path: r.path,
        },
    })
}

fn trace(
    chain: &SfChain,
    smem: &BTreeMap<(u32, u32), u64>,
    tmem: &BTreeMap<TmemByte, u32>,
    t: TmemByte,
) -> SfPath {
    let s = tmem.get(&t).copied();
    let g = s.and_then(|a| smem.get(&(t.0, a)).copied());
    let element = g.and_then(|o| chain.global.element(o).ok().flatten());
    SfPath {
        tmem: t,
        smem: s,
        global: g,
        element,
    }
}

/// The chain a CUTLASS-style kernel builds for scale_A of one 128 x 4 tile, M = 128,
/// `.cta_group::1` (data-path layout D), one MMA with `.scale_vec::1X` per K block whose SF id
/// is the K block: the tensor read as rows of 16 bytes (the tensor map's stride), one box of
/// 16 x 32 bytes (the tile's 512 bytes, or the rows of 16 bytes the tensor has if fewer) to
/// shared memory at 0x8000, one `tcgen05.cp` of `shape` and `multicast` from there (K-major,
/// no swizzle, 8-row groups 128 bytes apart: the rows contiguous) to Tensor Memory column 0,
/// and the MMAs' scale-factor address column 0. With the blocked layout, `.32x128b.warpx4`
/// and `min(k_blocks, 4)` MMAs this is CUTLASS's SM100 block-scaled mainloop for one tile.
///
/// # Errors
/// [`ChainError::CpLayout`] for a descriptor this target refuses (never for these values).
pub fn one_tile_chain(
    global: GlobalSfLayout,
    shape: CpShape,
    multicast: CpMulticast,
) -> Result<SfChain, ChainError> {
    const SMEM: u32 = 0x8000;
    let bits = u64::from(SMEM >> 4) | 8 << 16 | 8 << 32 | 1 << 46;
    let desc = SmemDescriptor::from_bits(bits, crate::Target::Sm100a)
        .map_err(|e| ChainError::CpLayout(0, LayoutError::Descriptor(e)))?;
    let outer = (global.bytes() / 16).min(32) as u32;
    let copies = if outer == 0 {
        Vec::new()
    } else {
        alloc::vec![SfTensorCopy {
            cta: 0,
            base: 0,
            pitch: 16,
            copy: TensorCopyBox::new(
                crate::shared_memory_descriptor::Swizzle::None,
                byte_storage(),
                16,
                outer,
                SMEM
            ),
        }]
    };
    let cp = SfCp {
        ctas: 1,
        shape,
        multicast,
        desc,
        taddr: TmemAddress::new(0, 0),
    };
    let mut mmas = Vec::new();
    for s in 0..global.k_blocks().min(4) {
        let layout = SfLayout::try_new(
            crate::data_path::DataPathLayout::D,
            crate::data_path::SfOperand::A,
            crate::data_path::ScaleVec::X1,
            128,
            s,
        )
        .map_err(|e| ChainError::Mma(s as usize, e))?;
        mmas.push(SfMma {
            layout,
            taddr: TmemAddress::new(0, 0),
            batch: 0,
            row_start: 0,
            k_block_start: s,
        });
    }
    Ok(SfChain {
        global,
        copies,
        cps: alloc::vec![cp],
        mmas,
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a failed unwrap is a failed test
mod tests {
    use alloc::vec;
    use alloc::vec::Vec;

    use super::{
        byte_storage, chain_reads, check_chain, ChainAgreement, SfChain, SfCp, SfMma, SfTensorCopy,
    };
    use crate::data_path::{DataPathLayout, ScaleVec, SfLayout, SfOperand};
    use crate::layout::scale_factors::{GlobalSfLayout, SfArrangement, SfIndex};
    use crate::shared_memory_descriptor::{SmemDescriptor, Swizzle};
    use crate::tensor_copy::TensorCopyBox;
    use crate::tensor_memory::{CpMulticast, CpShape, TmemAddress};
    use crate::Target;

    /// K-major, no swizzle, rows of 16 bytes contiguous (SBO 128), version 1 (PTX ISA 9.7.16.4.1).
    fn desc(start: u32) -> SmemDescriptor {
        let bits = u64::from(start >> 4) | 8 << 16 | 8 << 32 | 1 << 46;
        SmemDescriptor::from_bits(bits, Target::Sm100a).unwrap()
    }

    /// One 16 x 32 box (512 bytes: one 128 x 4 tile) of the tensor read as rows of 16 bytes,
    /// starting `tile` tiles in, to `dst` of CTA `cta`.
    fn tile_copy(cta: u32, tile: u32, dst: u32) -> SfTensorCopy {
        SfTensorCopy {
            cta,
            base: 0,
            pitch: 16,
            copy: TensorCopyBox::new(Swizzle::None, byte_storage(), 16, 32, dst)
                .at_origin(0, 32 * tile),
        }
    }

    fn cp(ctas: u32, shape: CpShape, multicast: CpMulticast, src: u32, column: u32) -> SfCp {
        SfCp {
            ctas,
            shape,
            multicast,
            desc: desc(src),
            taddr: TmemAddress::new(0, column),
        }
    }

    fn mmas(layout: DataPathLayout, op: SfOperand, n: u32, column: u32, kbs: u32) -> Vec<SfMma> {
        (0..kbs)
            .map(|s| SfMma {
                layout: SfLayout::try_new(layout, op, ScaleVec::X1, n, s).unwrap(),
                taddr: TmemAddress::new(0, column),
                batch: 0,
                row_start: 0,
                k_block_start: s,
            })
            .collect()
    }

    fn blocked(rows: u32, kbs: u32) -> GlobalSfLayout {
        GlobalSfLayout::try_new(SfArrangement::Blocked128x4, rows, kbs, 1).unwrap()
    }

    /// M = 256 with `.cta_group::2` (layout A): each CTA gets its own 128-row tile of scale_A
    /// (rows 128-255 are the second 512-byte tile) and one `.32x128b.warpx4` cp runs in both.
    #[test]
    fn two_cta_m256_scale_a_agrees_with_one_tile_per_cta() {
        let chain = SfChain {
            global: blocked(256, 4),
            copies: vec![tile_copy(0, 0, 0x8000), tile_copy(1, 1, 0x8000)],
            cps: vec![cp(2, CpShape::S32x128b, CpMulticast::Warpx4, 0x8000, 0)],
            mmas: mmas(DataPathLayout::A, SfOperand::A, 256, 0, 4),
        };
        // 4 MMAs x 256 rows x 4 lane copies.
        assert_eq!(
            check_chain(&chain).unwrap(),
            ChainAgreement::Agree { reads: 4096 }
        );
        // Both CTAs given tile 0: CTA 1's first row (row 128) reads row 0.
        let mut wrong = chain.clone();
        wrong.copies[1] = tile_copy(1, 0, 0x8000);
        let ChainAgreement::Differs { index, path, .. } = check_chain(&wrong).unwrap() else {
            panic!("must differ")
        };
        assert_eq!(index, 128);
        assert_eq!(path.element.map(|e| e.row), Some(0));
    }

    /// scale_B of N = 256 with `.cta_group::2`: both CTAs need both 128-column tiles, at
    /// columns 0-3 and 4-7 (column i / 32 of PTX ISA 9.7.16.10.7).
    #[test]
    fn two_cta_scale_b_needs_both_tiles_in_both_ctas() {
        let mut chain = SfChain {
            global: blocked(256, 4),
            copies: vec![
                tile_copy(0, 0, 0x8000),
                tile_copy(0, 1, 0x8200),
                tile_copy(1, 0, 0x8000),
                tile_copy(1, 1, 0x8200),
            ],
            cps: vec![
                cp(2, CpShape::S32x128b, CpMulticast::Warpx4, 0x8000, 0),
                cp(2, CpShape::S32x128b, CpMulticast::Warpx4, 0x8200, 4),
            ],
            mmas: mmas(DataPathLayout::A, SfOperand::B, 256, 0, 4),
        };
        // 4 MMAs x 256 columns x 2 CTAs x 4 lane copies.
        assert_eq!(
            check_chain(&chain).unwrap(),
            ChainAgreement::Agree { reads: 8192 }
        );
        // Only CTA 0 receives the second tile: column 128 in CTA 1 was never copied there.
        chain.copies.pop();
        let ChainAgreement::Differs { index, path, .. } = check_chain(&chain).unwrap() else {
            panic!("must differ")
        };
        assert_eq!((index, path.tmem.0), (128, 1));
        assert_eq!((path.smem, path.global), (Some(0x8200), None));
    }

    /// `.128x128b` puts source row r in lane r only, but the MMA reads row i of scale_A in all
    /// four subpartitions (lane i % 32 + 32 q): the first read that misses is row 0's copy in
    /// lane 32, which the cp filled from source row 32, never written by the 512-byte box.
    #[test]
    fn cp_without_warpx4_misses_the_other_subpartitions() {
        let chain = SfChain {
            global: blocked(128, 4),
            copies: vec![tile_copy(0, 0, 0x8000)],
            cps: vec![cp(1, CpShape::S128x128b, CpMulticast::None, 0x8000, 0)],
            mmas: mmas(DataPathLayout::D, SfOperand::A, 128, 0, 4),
        };
        let ChainAgreement::Differs {
            index,
            k_block,
            path,
            intended,
            ..
        } = check_chain(&chain).unwrap()
        else {
            panic!("must differ")
        };
        assert_eq!((index, k_block), (0, 0));
        assert_eq!(path.tmem, (0, 32, 0, 0));
        assert_eq!((path.smem, path.global), (Some(0x8000 + 32 * 16), None));
        assert_eq!(
            intended,
            Some(SfIndex {
                batch: 0,
                row: 0,
                k_block: 0
            })
        );
    }

    /// Rows past the tensor (M = 100 in a 128-row tile) read padding, which is never reported.
    #[test]
    fn rows_past_the_tensor_are_not_reported() {
        let chain = SfChain {
            global: blocked(100, 3),
            copies: vec![tile_copy(0, 0, 0x8000)],
            cps: vec![cp(1, CpShape::S32x128b, CpMulticast::Warpx4, 0x8000, 0)],
            mmas: mmas(DataPathLayout::D, SfOperand::A, 128, 0, 4),
        };
        assert_eq!(
            check_chain(&chain).unwrap(),
            ChainAgreement::Agree { reads: 2048 }
        );
    }

    /// facebookexperimental/triton#3653: with M = 128 and `.cta_group::2` (data-path layout
    /// B) scale_B is laid out 2x2 (column n at lanes n' % 32 + 64 h and + 32, n' = n % 64,
    /// h = n / 64), but a kernel that copies it as for the 4x1 layouts (`.32x128b.warpx4`,
    /// column n at lane n % 32 of every subpartition) makes the MMA read, for every column n,
    /// the scale of column n % 64: the "effective b_scale[n] = b_scale[n % 64]".
    #[test]
    fn triton_3653_two_cta_m128_scale_b_reads_column_n_mod_64() {
        let chain = SfChain {
            global: blocked(128, 4),
            copies: vec![tile_copy(0, 0, 0x8000), tile_copy(1, 0, 0x8000)],
            cps: vec![cp(2, CpShape::S32x128b, CpMulticast::Warpx4, 0x8000, 0)],
            mmas: mmas(DataPathLayout::B, SfOperand::B, 128, 0, 4),
        };
        let ChainAgreement::Differs { index, path, .. } = check_chain(&chain).unwrap() else {
            panic!("must differ")
        };
        assert_eq!((index, path.element.map(|e| e.row)), (64, Some(0)));
        let reads = chain_reads(&chain).unwrap();
        // 4 MMAs x 128 columns x 2 CTAs x 2 lane copies.
        assert_eq!(reads.len(), 2048);
        for r in &reads {
            assert_eq!(r.path.element.map(|e| e.row), Some(r.index % 64), "{r:?}");
            assert_eq!(r.path.element.map(|e| e.k_block), Some(r.mma as u32));
        }
    }

    /// K = 96 (`sm_103a`, rules.md T3) as CUTLASS 4.2.0's `sm103_blockscaled_mma_warpspecialized`
    /// feeds it: M = 256 with `.cta_group::2`, a K tile of 384 in four MMAs, the 128 x 4 tiles
    /// of each CTA's 128 rows copied one by one and each moved by one `.32x128b.warpx4` cp to
    /// 4 columns further (the Sm103 atom `((8,4,4),(V,4)) : ((16,128,4),(0,1))` is the Sm100
    /// blocked atom written in three row modes), and MMA `t` given the address of byte `3t`
    /// (`.block32`) or `6t` (`.block16`): column `4 (c t / 4)`, SF_ID `c t % 4`. Every row and
    /// K block of every MMA reads the scale factor the user meant.
    #[test]
    fn k96_mainloop_reads_the_intended_scale_factors() {
        for (vec, c) in [(ScaleVec::X3, 3u32), (ScaleVec::X6, 6u32)] {
            let kbs = 4 * c;
            let tiles = kbs / 4;
            let mut copies = Vec::new();
            let mut cps = Vec::new();
            for cta in 0..2 {
                for j in 0..tiles {
                    copies.push(tile_copy(cta, cta * tiles + j, 0x8000 + 0x200 * j));
                }
            }
            for j in 0..tiles {
                cps.push(cp(
                    2,
                    CpShape::S32x128b,
                    CpMulticast::Warpx4,
                    0x8000 + 0x200 * j,
                    4 * j,
                ));
            }
            let mmas: Vec<SfMma> = (0..4)
                .map(|t| SfMma {
                    layout: SfLayout::try_new(DataPathLayout::A, SfOperand::A, vec, 256, c * t % 4)
                        .unwrap(),
                    taddr: TmemAddress::new(0, 4 * (c * t / 4)),
                    batch: 0,
                    row_start: 0,
                    k_block_start: c * t,
                })
                .collect();
            let chain = SfChain {
                global: blocked(256, kbs),
                copies,
                cps,
                mmas,
            };
            // 4 MMAs x 256 rows x c K blocks x 4 lane copies.
            assert_eq!(
                check_chain(&chain).unwrap(),
                ChainAgreement::Agree {
                    reads: u64::from(4 * 256 * c * 4)
                },
                "{vec:?}"
            );
        }
    }
}
