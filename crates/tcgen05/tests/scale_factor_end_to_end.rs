//! Block-scaled MMAs end to end, through the pieces a kernel uses: the user's scale tensor in
//! global memory in a library layout (`scale_factors`), a tensor copy box per 128 x 4 tile
//! (`tensor_copy`'s placement) into shared memory, `tcgen05.cp.32x128b.warpx4` (the emulator's
//! movement model) into Tensor Memory, and four `tcgen05.mma...kind::mxf8f6f4.block_scale` with
//! SF ids 0-3 (the emulator) over K = 128. D is compared with an independent reference: the
//! fused dot products of `numerics` for the user's unscaled data and the scales they meant.
//!
//! Then the mistakes of flashinfer-ai/flashinfer#4087 (scales handed over row-major, without the
//! 128 x 4 interleave) and of sgl-project/sglang#23625 (the 128 x 4 permutation applied on top
//! of already blocked scales) are planted in the host-side scale layout: D is wrong, and
//! `check_chain` names the first (row, K block) whose consumed scale is not the intended one.
//! The same chain carries NVFP4 (`kind::mxf4nvf4`, ue4m3, `.scale_vec::4X`), where
//! sglang#23625's swapped weight nibbles give wrong D while the scale chain agrees.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

use tcgen05::canonical_layout::ElementStorage;
use tcgen05::data_path::{DataPathLayout, ScaleVec, SfLayout, SfOperand};
use tcgen05::emulator::Machine;
use tcgen05::numerics::params::{Arch, Form, Instruction as NumInstruction};
use tcgen05::numerics::{Format, Operands};
use tcgen05::scale_factor_chain::{
    check_chain, ChainAgreement, SfChain, SfCp, SfMma, SfTensorCopy,
};
use tcgen05::scale_factors::{GlobalSfLayout, SfArrangement, SfIndex};
use tcgen05::shared_memory_descriptor::{SmemDescriptor, Swizzle};
use tcgen05::tensor_copy::TensorCopyBox;
use tcgen05::tensor_memory::{CpMulticast, CpShape, TmemAddress};
use tcgen05::{ElementType, Kind, Target};

const M: u32 = 128;
const N: u32 = 128;
const KB: u32 = 4; // K blocks of 32: K = 128, four MMAs of K = 32
const SFA_SMEM: u32 = 0x8000;
const SFB_SMEM: u32 = 0x8200;
const SFA_COL: u32 = 200;
const SFB_COL: u32 = 208;

/// A K-major, unswizzled shared memory descriptor (PTX ISA 9.7.16.4.1): start, LBO, SBO in
/// bytes, version 1 at bit 46.
fn desc(start: u32, lbo: u32, sbo: u32) -> u64 {
    u64::from(start >> 4) | u64::from(lbo >> 4) << 16 | u64::from(sbo >> 4) << 32 | 1 << 46
}

/// A small deterministic generator (splitmix64).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// A finite e4m3 code (0x7F and 0xFF are NaN).
    fn e4m3(&mut self) -> u32 {
        loop {
            let c = (self.next() & 0xFF) as u32;
            if c & 0x7F != 0x7F {
                return c;
            }
        }
    }
    /// A ue8m0 code 2^-4 .. 2^4, or, for `repeated`, 2^0 with one code in 256 2^1 (scales
    /// that mostly repeat, as trained weights' exponents do).
    fn ue8m0(&mut self, repeated: bool) -> u32 {
        if repeated {
            return if self.next() % 256 == 0 { 128 } else { 127 };
        }
        123 + (self.next() % 9) as u32
    }
}

struct Problem {
    a: Vec<u32>,   // M x K codes, row-major
    b: Vec<u32>,   // N x K codes, row-major
    sfa: Vec<u32>, // M x KB
    sfb: Vec<u32>, // N x KB
}

fn problem(seed: u64, repeated: bool) -> Problem {
    let mut r = Rng(seed);
    Problem {
        a: (0..M * 32 * KB).map(|_| r.e4m3()).collect(),
        b: (0..N * 32 * KB).map(|_| r.e4m3()).collect(),
        sfa: (0..M * KB).map(|_| r.ue8m0(repeated)).collect(),
        sfb: (0..N * KB).map(|_| r.ue8m0(repeated)).collect(),
    }
}

/// The user's scale matrix (rows x KB) written into a global buffer in `arrangement`, padding
/// zero as the libraries fill it.
fn host_buffer(g: &GlobalSfLayout, sf: &[u32]) -> Vec<u8> {
    let mut buf = vec![0u8; g.bytes() as usize];
    for row in 0..g.rows() {
        for k_block in 0..g.k_blocks() {
            let i = SfIndex {
                batch: 0,
                row,
                k_block,
            };
            buf[g.offset(i).unwrap() as usize] = sf[(row * KB + k_block) as usize] as u8;
        }
    }
    buf
}

fn bytes() -> ElementStorage {
    ElementStorage::of(ElementType::E4m3, None).unwrap()
}

/// The kernel's pieces for one operand: the global tensor read as rows of 16 bytes, one
/// 16 x 32 box (the 512 bytes of the 128 x 4 tile), one `.32x128b.warpx4` copy of those 32 rows
/// of 16 bytes (SBO 128: the rows are contiguous), and four MMAs reading SF ids 0-3.
fn chain(global: GlobalSfLayout, operand: SfOperand, smem: u32, column: u32) -> SfChain {
    let copy = SfTensorCopy {
        cta: 0,
        base: 0,
        pitch: 16,
        copy: TensorCopyBox::new(Swizzle::None, bytes(), 16, 32, smem),
    };
    let cp = SfCp {
        ctas: 1,
        shape: CpShape::S32x128b,
        multicast: CpMulticast::Warpx4,
        desc: SmemDescriptor::from_bits(desc(smem, 128, 128), Target::Sm100a).unwrap(),
        taddr: TmemAddress::new(0, column),
    };
    let mmas = (0..KB)
        .map(|s| SfMma {
            layout: SfLayout::try_new(DataPathLayout::D, operand, ScaleVec::X1, N, s).unwrap(),
            taddr: TmemAddress::new(0, column),
            batch: 0,
            row_start: 0,
            k_block_start: s,
        })
        .collect();
    SfChain {
        global,
        copies: vec![copy],
        cps: vec![cp],
        mmas,
    }
}

/// Runs the kernel on the emulator with the host buffers as given; returns D's f32 codes.
fn run(p: &Problem, host_a: &[u8], host_b: &[u8], ca: &SfChain, cb: &SfChain) -> Vec<u32> {
    let mut m = Machine::new(Target::Sm100a);
    // A and B: K block s of A at s * 0x1000, of B at 0x4000 + s * 0x1000, K-major canonical
    // layout without swizzle (LBO 128 between the two 16-byte K halves, SBO 256 between
    // 8-row groups): byte (r % 8) * 16 + (r / 8) * 256 + (k / 16) * 128 + k % 16.
    for s in 0..KB {
        for (codes, rows, base) in [(&p.a, M, s * 0x1000), (&p.b, N, 0x4000 + s * 0x1000)] {
            for r in 0..rows {
                for k in 0..32 {
                    let addr = base + (r % 8) * 16 + (r / 8) * 256 + (k / 16) * 128 + k % 16;
                    let c = codes[(r * 32 * KB + s * 32 + k) as usize] as u8;
                    m.cta_mut(0).write_smem(addr, &[c]).unwrap();
                }
            }
        }
    }
    // The tensor copies: each box element lands where tensor_copy places it.
    for (c, host) in [(&ca.copies[0], host_a), (&cb.copies[0], host_b)] {
        for o in 0..c.copy.outer {
            for i in 0..c.copy.inner {
                let at = c.copy.address(i, o).unwrap();
                let g = c.base + u64::from(o) * c.pitch + u64::from(i);
                m.cta_mut(0)
                    .write_smem(at.address, &[host[g as usize]])
                    .unwrap();
            }
        }
    }
    for (smem, col) in [(SFA_SMEM, SFA_COL), (SFB_SMEM, SFB_COL)] {
        m.execute(&format!(
            "tcgen05.cp.cta_group::1.32x128b.warpx4 [{col}], {:#x};",
            desc(smem, 128, 128)
        ))
        .unwrap();
    }
    for s in 0..KB {
        // mxf8f6f4 e4m3 x e4m3, M 128 (bits 24-28), N 128 (bits 17-22), ue8m0 scales (bit 23),
        // SFA id s (bits 29-30), SFB id s (bits 4-5).
        let idesc: u32 = s << 29 | 8 << 24 | 1 << 23 | 16 << 17 | s << 4;
        m.execute(&format!(
            "tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale [0], {:#x}, {:#x}, {idesc:#x}, [{SFA_COL}], [{SFB_COL}], {};",
            desc(s * 0x1000, 128, 256),
            desc(0x4000 + s * 0x1000, 128, 256),
            u32::from(s > 0)
        ))
        .unwrap();
    }
    m.last_d().unwrap().unwrap().codes
}

/// The reference: D[i][j] accumulated over the four K blocks with the intended scales.
fn reference(p: &Problem) -> Vec<u32> {
    let row = Form {
        arch: Arch::Sm100a,
        instruction: Some(NumInstruction::Tcgen05Mma),
        kind: Kind::Mxf8f6f4,
        a: Format::E4m3,
        b: Format::E4m3,
        d: Some(Format::F32),
        scale: Some(Format::Ue8m0),
        block: Some(32),
    }
    .row()
    .unwrap();
    let mut d = vec![0u32; (M * N) as usize];
    for i in 0..M {
        for j in 0..N {
            let mut c = 0u32;
            for s in 0..KB {
                let ka = ((i * KB + s) * 32) as usize;
                let kb = ((j * KB + s) * 32) as usize;
                c = row
                    .dot(
                        &Operands {
                            a: &p.a[ka..ka + 32],
                            b: &p.b[kb..kb + 32],
                            c,
                            sfa: &p.sfa[(i * KB + s) as usize..=(i * KB + s) as usize],
                            sfb: &p.sfb[(j * KB + s) as usize..=(j * KB + s) as usize],
                        },
                        false,
                    )
                    .unwrap()
                    .d_bits;
            }
            d[(i * N + j) as usize] = c;
        }
    }
    d
}

fn wrong(d: &[u32], want: &[u32]) -> usize {
    d.iter().zip(want).filter(|(x, y)| x != y).count()
}

/// The host writes `arrangement`, the kernel reads blocked: D against the reference and the
/// chain's answer.
fn case(arrangement: SfArrangement, repeated: bool) -> (usize, ChainAgreement) {
    let p = problem(28, repeated);
    let ga = GlobalSfLayout::try_new(arrangement, M, KB, 1).unwrap();
    let gb = GlobalSfLayout::try_new(arrangement, N, KB, 1).unwrap();
    let ca = chain(ga, SfOperand::A, SFA_SMEM, SFA_COL);
    let cb = chain(gb, SfOperand::B, SFB_SMEM, SFB_COL);
    let d = run(
        &p,
        &host_buffer(&ga, &p.sfa),
        &host_buffer(&gb, &p.sfb),
        &ca,
        &cb,
    );
    let bad = wrong(&d, &reference(&p));
    (bad, check_chain(&ca).unwrap())
}

#[test]
fn blocked_scales_give_the_reference_d_and_the_chain_agrees() {
    let (bad, agreement) = case(SfArrangement::Blocked128x4, false);
    assert_eq!(bad, 0, "elements of D that differ from the reference");
    // 4 MMAs x 128 rows x 1 K block x 4 lane copies.
    assert_eq!(agreement, ChainAgreement::Agree { reads: 2048 });
}

/// flashinfer#4087: row-major scales where the kernel reads 128 x 4 blocked ones.
#[test]
fn flashinfer_4087_row_major_scales_give_wrong_d_and_the_chain_names_row_1_k_block_0() {
    let (bad, agreement) = case(SfArrangement::KMajor, false);
    assert!(bad > 10_000, "{bad} wrong elements of D");
    println!("row-major scales: {bad} of {} elements of D wrong", M * N);
    // MMA 0 (K block 0) reads byte 0 of lane r's 16 bytes: row r's K block 0 in both
    // layouts for row 0, so row 0 agrees; row 1's blocked byte (16) holds row 4's K block 0
    // in the row-major buffer.
    let ChainAgreement::Differs {
        mma,
        index,
        k_block,
        intended,
        path,
    } = agreement
    else {
        panic!("the chain must disagree: {agreement:?}")
    };
    assert_eq!((mma, index, k_block), (0, 1, 0));
    assert_eq!(
        intended,
        Some(SfIndex {
            batch: 0,
            row: 1,
            k_block: 0
        })
    );
    assert_eq!(path.tmem, (0, 1, SFA_COL, 0));
    assert_eq!(path.smem, Some(SFA_SMEM + 16));
    assert_eq!(path.global, Some(16));
    assert_eq!(
        path.element,
        Some(SfIndex {
            batch: 0,
            row: 4,
            k_block: 0
        })
    );
}

/// sglang#23625 (as modelled): the 128 x 4 permutation applied twice.
#[test]
fn sglang_23625_doubly_permuted_scales_give_wrong_d_and_the_chain_names_the_element() {
    let (bad, agreement) = case(SfArrangement::BlockedTwice, false);
    assert!(bad > 10_000, "{bad} wrong elements of D");
    println!(
        "doubly permuted scales: {bad} of {} elements of D wrong",
        M * N
    );
    let ChainAgreement::Differs {
        mma,
        index,
        k_block,
        path,
        ..
    } = agreement
    else {
        panic!("the chain must disagree: {agreement:?}")
    };
    // Row 0 K block 0 is at byte 0 under both; row 1 is at blocked byte 16, which the second
    // permutation fills from byte 4 of the once-permuted buffer: row 32, K block 0.
    assert_eq!((mma, index, k_block), (0, 1, 0));
    assert_eq!(path.global, Some(16));
    assert_eq!(
        path.element,
        Some(SfIndex {
            batch: 0,
            row: 32,
            k_block: 0
        })
    );
}

/// flashinfer#4087's symptom: with scales that mostly repeat (one in 256 differs), most
/// misplaced reads land on an equal scale, so only some elements of D are wrong, yet the chain
/// check, which follows positions and not values, names the same first element.
#[test]
fn flashinfer_4087_with_repeated_scales_gives_sparse_errors_the_chain_still_finds() {
    let (bad, agreement) = case(SfArrangement::KMajor, true);
    let all = (M * N) as usize;
    assert!(
        bad > 0 && bad < all / 2,
        "{bad} of {all} wrong elements of D"
    );
    let ChainAgreement::Differs { index, path, .. } = agreement else {
        panic!("the chain must disagree: {agreement:?}")
    };
    assert_eq!((index, path.global), (1, Some(16)));
    println!("repeated scales: {bad} of {all} elements of D wrong");
}

/// NVFP4 (`kind::mxf4nvf4`, e2m1 x e2m1, ue4m3 scales, `.scale_vec::4X`: one scale per 16
/// elements, four per row in one MMA of K = 64) through the same chain: the 128 x 4 blocked
/// scales, one `.32x128b.warpx4` copy, the four bytes of each cell read by the one MMA (SF id
/// 0). `swap_nibbles` stores each byte of B (the weights) with its two e2m1 elements high
/// nibble first, the checkpoint order of sgl-project/sglang#23625, where the kernel expects the
/// first element in the low nibble (the shared-memory packing of PTX ISA 9.7.14.5.14, decision
/// D5); the activations A keep the kernel's order (swapping both would cancel in the dot
/// product). Returns the wrong elements of D and the chain's answer.
fn nvfp4_case(host: SfArrangement, swap_nibbles: bool) -> (usize, ChainAgreement) {
    use tcgen05::instruction_descriptor::{IdescFields, InstructionDescriptor};
    use tcgen05::mma::ScaleType;
    const K: u32 = 64;
    let mut rng = Rng(96);
    // e2m1 codes 0-15; ue4m3 scales 0x30-0x3f (0.5 to 0.94, positive, finite).
    let a: Vec<u32> = (0..M * K).map(|_| (rng.next() & 0xF) as u32).collect();
    let b: Vec<u32> = (0..N * K).map(|_| (rng.next() & 0xF) as u32).collect();
    let sfa: Vec<u32> = (0..M * KB)
        .map(|_| 0x30 + (rng.next() & 0xF) as u32)
        .collect();
    let sfb: Vec<u32> = (0..N * KB)
        .map(|_| 0x30 + (rng.next() & 0xF) as u32)
        .collect();
    let ga = GlobalSfLayout::try_new(host, M, KB, 1).unwrap();
    let gb = GlobalSfLayout::try_new(host, N, KB, 1).unwrap();
    let mut m = Machine::new(Target::Sm100a);
    let operands = [(&a, M, 0u32, false), (&b, N, 0x4000u32, swap_nibbles)];
    for (codes, rows, base, swap) in operands {
        for r in 0..rows {
            for byte in 0..K / 2 {
                let lo = codes[(r * K + 2 * byte) as usize];
                let hi = codes[(r * K + 2 * byte + 1) as usize];
                let v = if swap { hi | lo << 4 } else { lo | hi << 4 };
                let addr = base + (r % 8) * 16 + (r / 8) * 256 + (byte / 16) * 128 + byte % 16;
                m.cta_mut(0).write_smem(addr, &[v as u8]).unwrap();
            }
        }
    }
    let ca = chain(ga, SfOperand::A, SFA_SMEM, SFA_COL);
    for (g, sf, smem, col) in [
        (&ga, &sfa, SFA_SMEM, SFA_COL),
        (&gb, &sfb, SFB_SMEM, SFB_COL),
    ] {
        let host_bytes = host_buffer(g, sf);
        let c = chain(*g, SfOperand::A, smem, col).copies[0];
        for o in 0..c.copy.outer {
            for i in 0..c.copy.inner {
                let at = c.copy.address(i, o).unwrap();
                let byte = host_bytes[(u64::from(o) * c.pitch + u64::from(i)) as usize];
                m.cta_mut(0).write_smem(at.address, &[byte]).unwrap();
            }
        }
        m.execute(&format!(
            "tcgen05.cp.cta_group::1.32x128b.warpx4 [{col}], {:#x};",
            desc(smem, 128, 128)
        ))
        .unwrap();
    }
    let f = IdescFields::new(
        Kind::Mxf4nvf4,
        ElementType::F32,
        ElementType::E2m1,
        ElementType::E2m1,
        M as u16,
        N as u16,
    )
    .with_scale(ScaleType::Ue4m3, 0, 0);
    let idesc = InstructionDescriptor::new(f).bits();
    m.execute(&format!(
        "tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.scale_vec::4X [0], {:#x}, {:#x}, {idesc:#x}, [{SFA_COL}], [{SFB_COL}], 0;",
        desc(0, 128, 256),
        desc(0x4000, 128, 256)
    ))
    .unwrap();
    let d = m.last_d().unwrap().unwrap().codes;
    let row = Form {
        arch: Arch::Sm100a,
        instruction: Some(NumInstruction::Tcgen05Mma),
        kind: Kind::Mxf4nvf4,
        a: Format::E2m1,
        b: Format::E2m1,
        d: Some(Format::F32),
        scale: Some(Format::Ue4m3),
        block: Some(16),
    }
    .row()
    .unwrap();
    let mut bad = 0;
    for i in 0..M {
        for j in 0..N {
            let want = row
                .dot(
                    &Operands {
                        a: &a[(i * K) as usize..((i + 1) * K) as usize],
                        b: &b[(j * K) as usize..((j + 1) * K) as usize],
                        c: 0,
                        sfa: &sfa[(i * KB) as usize..((i + 1) * KB) as usize],
                        sfb: &sfb[(j * KB) as usize..((j + 1) * KB) as usize],
                    },
                    false,
                )
                .unwrap()
                .d_bits;
            bad += usize::from(d[(i * N + j) as usize] != want);
        }
    }
    // The scale chain of this kernel: one MMA reading the four bytes (K blocks 0-3) of SF id 0.
    let mut c4 = ca;
    c4.mmas = vec![SfMma {
        layout: SfLayout::try_new(DataPathLayout::D, SfOperand::A, ScaleVec::X4, N, 0).unwrap(),
        taddr: TmemAddress::new(0, SFA_COL),
        batch: 0,
        row_start: 0,
        k_block_start: 0,
    }];
    (bad, check_chain(&c4).unwrap())
}

#[test]
fn nvfp4_blocked_scales_give_the_reference_d_and_the_mistakes_do_not() {
    let (bad, agreement) = nvfp4_case(SfArrangement::Blocked128x4, false);
    assert_eq!(bad, 0, "elements of D that differ from the reference");
    // 128 rows x 4 K blocks x 4 lane copies.
    assert_eq!(agreement, ChainAgreement::Agree { reads: 2048 });
    // sglang#23625's nibble order: the scales agree, the data does not.
    let (bad, agreement) = nvfp4_case(SfArrangement::Blocked128x4, true);
    assert!(bad > 10_000, "{bad} wrong elements of D");
    println!(
        "nvfp4, weight nibbles swapped: {bad} of {} elements of D wrong",
        M * N
    );
    assert!(matches!(agreement, ChainAgreement::Agree { .. }));
    // sglang#23625's doubly permuted scales: the chain names row 1 again.
    let (bad, agreement) = nvfp4_case(SfArrangement::BlockedTwice, false);
    assert!(bad > 10_000, "{bad} wrong elements of D");
    println!(
        "nvfp4, doubly permuted scales: {bad} of {} elements of D wrong",
        M * N
    );
    let ChainAgreement::Differs { index, path, .. } = agreement else {
        panic!("the chain must disagree: {agreement:?}")
    };
    assert_eq!((index, path.global), (1, Some(16)));
}
