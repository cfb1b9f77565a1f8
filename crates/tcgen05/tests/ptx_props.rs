//! Properties of the PTX builders (`tcgen05::ptx`, PTX ISA 9.7.16.7-9.7.16.10.9): on any input
//! they never panic, never overflow their problem list, write exactly when no rule is broken, and
//! write the operands they were given. (Agreement with ptxas on every generated form is checked by
//! `conformance/ptxas`.)

mod common;

use proptest::prelude::*;
use tcgen05::instruction_descriptor::{IdescFields, InstructionDescriptor};
use tcgen05::ptx::{
    ASource, Collector, CollectorOp, Context, Instruction, Mma, PtxError, RenderError, ScaleVec,
    Syntax, TmemLoad, TmemStore, Value,
};
use tcgen05::shapes::{shapes, Shape, ShapeFilter};
use tcgen05::tensor_memory::{registers_per_thread, LdStShape, Num};
use tcgen05::{CtaGroup, Diagnostic, ElementType, Kind, ScaleType, Target};

const LANES: [&str; 9] = ["l0", "l1", "l2", "l3", "l4", "l5", "l6", "l7", "l8"];
const REGS: [&str; 130] = {
    // 130 distinct register names (the largest vector has 128).
    let mut a = ["x"; 130];
    let names = [
        "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9", "b0", "b1", "b2", "b3", "b4",
        "b5", "b6", "b7", "b8", "b9", "c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9",
        "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9", "e0", "e1", "e2", "e3", "e4",
        "e5", "e6", "e7", "e8", "e9", "f0", "f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9",
        "g0", "g1", "g2", "g3", "g4", "g5", "g6", "g7", "g8", "g9", "h0", "h1", "h2", "h3", "h4",
        "h5", "h6", "h7", "h8", "h9", "i0", "i1", "i2", "i3", "i4", "i5", "i6", "i7", "i8", "i9",
        "j0", "j1", "j2", "j3", "j4", "j5", "j6", "j7", "j8", "j9", "k0", "k1", "k2", "k3", "k4",
        "k5", "k6", "k7", "k8", "k9", "m0", "m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8", "m9",
        "n0", "n1", "n2", "n3", "n4", "n5", "n6", "n7", "n8", "n9",
    ];
    let mut i = 0;
    while i < 130 {
        a[i] = names[i];
        i += 1;
    }
    a
};

fn target() -> impl Strategy<Value = Target> {
    prop::sample::select(Target::ALL.to_vec())
}

fn collector() -> impl Strategy<Value = Option<Collector>> {
    let op = prop::sample::select(CollectorOp::ALL.to_vec());
    prop_oneof![
        Just(None),
        op.clone().prop_map(|o| Some(Collector::A(o))),
        (0u8..6, op).prop_map(|(n, o)| Some(Collector::B(n, o))),
    ]
}

prop_compose! {
    fn mma()(
        two in any::<bool>(),
        kind in prop::sample::select(Kind::ALL.to_vec()),
        ws in any::<bool>(),
        sp in any::<bool>(),
        a_tmem in any::<bool>(),
        idesc in prop_oneof![Just(None), any::<u32>().prop_map(Some)],
        vec in prop_oneof![Just(None), prop::sample::select(ScaleVec::ALL.to_vec()).prop_map(Some)],
        coll in collector(),
        ashift in any::<bool>(),
        dol in prop_oneof![Just(None), (0usize..=9).prop_map(Some)],
        en in prop_oneof![Just(None), any::<bool>().prop_map(Some)],
        sid in prop_oneof![Just(None), any::<u8>().prop_map(Some)],
        zm in prop_oneof![Just(None), Just(Some(None)), any::<u64>().prop_map(|z| Some(Some(z)))],
    ) -> Mma<'static> {
        let mut m = Mma::new(
            if two { CtaGroup::Two } else { CtaGroup::One },
            kind,
            "d",
            if a_tmem { ASource::Tmem("at") } else { ASource::Smem("ad") },
            "bd",
            idesc.map_or(Value::Reg("id"), Value::Imm),
            en.map_or(Value::Reg("p"), Value::Imm),
        )
        .with_ws(ws)
        .with_ashift(ashift);
        if sp {
            m = m.with_sparse("meta");
        }
        if let Some(v) = vec {
            m = m.with_block_scale(v, "sfa", "sfb");
        }
        m.collector = coll;
        m.disable_output_lane = dol.map(|n| &LANES[..n]);
        m.scale_input_d = sid;
        m.zero_column_mask = zm.map(|z| z.map_or(Value::Reg("zm"), Value::Imm));
        m
    }
}

/// A valid MMA of a Table 39 shape (the form `conformance/ptxas` assembles for every
/// shape): immediate or register descriptor, sparse metadata, default scale vector.
fn valid_mma(s: Shape, imm: bool) -> Mma<'static> {
    use ElementType as E;
    let (d, ab) = match s.kind {
        Kind::F16 => (E::F32, E::Bf16),
        Kind::Tf32 => (E::F32, E::Tf32),
        Kind::F8f6f4 | Kind::Mxf8f6f4 => (E::F32, E::E4m3),
        Kind::I8 => (E::S32, E::S8),
        Kind::Mxf4 | Kind::Mxf4nvf4 => (E::F32, E::E2m1),
    };
    let mut f = IdescFields::new(s.kind, d, ab, ab, s.m, s.n).with_k96(s.k == 96);
    if s.kind.is_block_scaled() {
        f = f.with_scale(ScaleType::Ue8m0, 0, 0);
    }
    if s.sparse {
        f = f.with_sparse(true, 0);
    }
    let idesc = InstructionDescriptor::try_new(f).expect("a Table 39 shape encodes");
    let mut m = Mma::new(
        s.cta_group,
        s.kind,
        "d",
        ASource::Smem("ad"),
        "bd",
        if imm {
            Value::Imm(idesc.bits())
        } else {
            Value::Reg("id")
        },
        Value::Reg("p"),
    )
    .with_ws(s.ws);
    if s.sparse {
        m = m.with_sparse("meta");
    }
    match s.kind {
        Kind::Mxf8f6f4 | Kind::Mxf4 => m = m.with_block_scale(ScaleVec::Default, "sfa", "sfb"),
        Kind::Mxf4nvf4 => m = m.with_block_scale(ScaleVec::Block32, "sfa", "sfb"),
        _ => {}
    }
    if s.ws {
        m = m.with_zero_column_mask(Value::Imm(0));
    }
    m
}

/// A valid MMA on a target, then (in 5 cases of 8) one part replaced by a random one.
fn mutated_mma() -> impl Strategy<Value = (Mma<'static>, Target, Option<u8>)> {
    (
        target(),
        any::<prop::sample::Index>(),
        any::<bool>(),
        0u8..8,
        mma(),
        80u8..100,
    )
        .prop_map(|(t, pick, imm, mutation, random, version)| {
            let all: Vec<Shape> = shapes(t, ShapeFilter::default()).collect();
            let s = *pick.get(&all);
            let mut m = valid_mma(s, imm);
            let mut v = None;
            match mutation {
                3 => m.idesc = random.idesc,
                4 => m.collector = random.collector,
                5 => {
                    m.disable_output_lane = random.disable_output_lane;
                    m.scale_input_d = random.scale_input_d;
                }
                6 => v = Some(version),
                7 => m = random,
                _ => {}
            }
            (m, t, v)
        })
}

/// Any MMA form: validation fits its list, rendering succeeds exactly when there is no error,
/// and a rendered form names every operand it was given. Both branches are counted: each must
/// run in at least a fifth of the 768 cases.
#[test]
fn any_mma() {
    common::counted::<_, 2>("any_mma", 768, 0.2, mutated_mma(), |(m, t, version)| {
        let ctx = match version {
            Some(v) => Context::new(t).with_version(v),
            None => Context::new(t),
        };
        let d = m.validate(&ctx);
        prop_assert!(!d.overflowed());
        // Every problem names a field and a source.
        for e in d.iter() {
            prop_assert!(!e.field().is_empty());
            prop_assert!(!e.to_string().is_empty());
        }
        let mut s = String::new();
        match m.render(&ctx, &mut s) {
            Ok(()) => {
                prop_assert!(!d.has_errors());
                prop_assert!(s.starts_with("tcgen05.mma") && s.ends_with(';'), "{}", s);
                prop_assert!(s.contains("[d], ") && s.contains(", bd, "), "{}", s);
                prop_assert_eq!(s.contains(".ws"), m.ws);
                prop_assert_eq!(s.contains("[meta]"), m.sparse_metadata.is_some());
                prop_assert_eq!(s.contains(".block_scale"), m.block_scale.is_some());
                if let Some(l) = m.disable_output_lane {
                    prop_assert!(s.contains(&format!("{{{}}}", l.join(","))), "{}", s);
                }
                Ok(0)
            }
            Err(RenderError::Invalid(e)) => {
                prop_assert!(e.has_errors());
                prop_assert!(s.is_empty());
                prop_assert_eq!(e, d);
                Ok(1)
            }
            Err(RenderError::Fmt) => Err(TestCaseError::fail("a String never fails")),
        }
    });
}

proptest! {
    /// Any load or store: the register vector is accepted exactly when its length is the one
    /// Tables 49-50 give, and the rendered vector has that many registers.
    #[test]
    fn any_load_store(
        shape in prop::sample::select(LdStShape::ALL.to_vec()),
        num in prop::sample::select(Num::ALL.to_vec()),
        n in 0usize..=130,
        offset in prop_oneof![Just(None), (0u32..1024).prop_map(Some)],
        pack in any::<bool>(),
    ) {
        let regs = &REGS[..n];
        let ctx = Context::new(Target::Sm100a);
        let mut ld = TmemLoad::new(shape, num, regs, "t").with_pack(pack);
        ld.offset = offset;
        let mut st = TmemStore::new(shape, num, "t", regs).with_unpack(pack);
        st.offset = offset;
        let want = registers_per_thread(shape, num).ok().map(usize::from);
        let offset_ok = match (shape, offset) {
            (LdStShape::S16x32bx2, Some(o)) => o < 512,
            (LdStShape::S16x32bx2, None) => false,
            (_, o) => o.is_none(),
        };
        for i in [Instruction::Load(ld), Instruction::Store(st)] {
            let d = i.validate(&ctx);
            prop_assert_eq!(!d.has_errors(), want == Some(n) && offset_ok, "{:?}", d);
            let counts = d.iter().filter(|e| matches!(e, PtxError::Rule { .. }) && e.field() == "registers").count();
            prop_assert_eq!(counts > 0, want.is_some() && want != Some(n));
            let mut s = String::new();
            if i.render_as(&ctx, &mut s, Syntax::RustAsm).is_ok() {
                let inner = s.split("{{").nth(1).and_then(|r| r.split("}}").next()).unwrap_or("");
                prop_assert_eq!(inner.split(',').count(), n, "{}", s);
            }
        }
    }
}
