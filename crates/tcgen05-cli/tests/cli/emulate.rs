//! `tcgen05 emulate`: the functional model from the command line.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

use std::collections::BTreeSet;

use crate::run;

const MMA: &str = "tcgen05.mma.cta_group::1.kind::f16 [0], 0x0000401000080000, 0x0000401000080100, 0x08100490, 0;";

fn keys(v: &serde_json::Value) -> BTreeSet<String> {
    v.as_object().expect("object").keys().cloned().collect()
}

fn set(k: &[&str]) -> BTreeSet<String> {
    k.iter().map(|s| (*s).to_string()).collect()
}

/// The data of a little-endian C-order `.npy` written by the command, with its dtype and shape
/// read from the header (NumPy format 1.0: magic, version, header length, dict).
fn npy(path: &std::path::Path) -> (String, String, Vec<u8>) {
    let b = std::fs::read(path).unwrap();
    assert_eq!(&b[..6], b"\x93NUMPY");
    let (hlen, start) = if b[6] == 1 {
        (usize::from(u16::from_le_bytes([b[8], b[9]])), 10)
    } else {
        (u32::from_le_bytes([b[8], b[9], b[10], b[11]]) as usize, 12)
    };
    let header = String::from_utf8(b[start..start + hlen].to_vec()).unwrap();
    let descr = header
        .split("'descr': '")
        .nth(1)
        .unwrap()
        .split('\'')
        .next()
        .unwrap()
        .to_string();
    let shape = header
        .split("'shape': (")
        .nth(1)
        .unwrap()
        .split(')')
        .next()
        .unwrap()
        .to_string();
    (descr, shape, b[start + hlen..].to_vec())
}

#[test]
fn random_inputs_reference_text_and_json() {
    let r = run(&[
        "emulate",
        "--random-inputs",
        "1",
        "--reference",
        "--exec",
        MMA,
    ]);
    r.code(0);
    assert!(
        r.stdout.starts_with(
            "line 1: tcgen05.mma.cta_group::1.kind::f16: D 128x64x16 f32 += bf16 x bf16, layout D"
        ),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("reference: largest error "),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("over 8192 elements (0 not finite)"),
        "{}",
        r.stdout
    );
    let v = run(&[
        "emulate",
        "--random-inputs",
        "1",
        "--reference",
        "--json",
        "--exec",
        MMA,
    ])
    .json();
    assert_eq!(
        keys(&v),
        set(&["lines", "errors", "not_executed", "d", "reference"])
    );
    assert_eq!(
        keys(&v["lines"][0]),
        set(&["line", "instruction", "effect", "warnings"])
    );
    assert_eq!(
        keys(&v["d"]),
        set(&["m", "n", "type", "layout", "lane", "column"])
    );
    assert_eq!(
        (v["d"]["m"].as_u64(), v["d"]["n"].as_u64()),
        (Some(128), Some(64))
    );
    assert_eq!(v["d"]["layout"], "D");
    assert_eq!(v["reference"]["compared"], 8192);
    // bf16 products summed with 25 fraction bits kept: errors of a few ulp, never thousands.
    let ulps = v["reference"]["max_ulps"].as_f64().unwrap();
    assert!(ulps < 1024.0, "{ulps}");
    // The same seed gives the same D; another seed another.
    let again = run(&[
        "emulate",
        "--random-inputs",
        "1",
        "--reference",
        "--json",
        "--exec",
        MMA,
    ])
    .json();
    assert_eq!(again, v);
    let other = run(&[
        "emulate",
        "--random-inputs",
        "2",
        "--reference",
        "--json",
        "--exec",
        MMA,
    ])
    .json();
    assert_ne!(other["reference"], v["reference"]);
}

#[test]
fn uninitialised_inputs_and_rule_errors_exit_1_with_json() {
    let r = run(&["emulate", "--json", "--exec", MMA]);
    r.code(1);
    let v = r.json();
    assert_eq!(keys(&v), set(&["lines", "errors", "not_executed"]));
    let rules: Vec<&str> = v["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["rule"].as_str().unwrap())
        .collect();
    assert_eq!(rules, ["smem-uninitialised", "smem-uninitialised"]);
    for e in v["errors"].as_array().unwrap() {
        assert_eq!(
            keys(e),
            set(&["line", "rule", "field", "value", "message", "source"])
        );
    }
    // Text: the line, each problem, and that nothing changed.
    let r = run(&["emulate", "--exec", MMA]);
    r.code(1);
    assert!(
        r.stderr.contains("error: line 1: tcgen05.mma"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("[smem-uninitialised]"));
    // M = 48: the form's rule, from tcgen05 check's rules.
    let bad = MMA.replace("0x08100490", "0x03100490");
    let v = run(&["emulate", "--random-inputs", "1", "--json", "--exec", &bad]).json();
    assert_eq!(v["errors"][0]["field"], "m");
    // A later line does not run after a failing one.
    let v = run(&[
        "emulate",
        "--json",
        "--random-inputs",
        "1",
        "--exec",
        &bad,
        "--exec",
        MMA,
    ])
    .json();
    assert_eq!(v["lines"].as_array().unwrap().len(), 0);
    assert!(v.get("d").is_none());
}

#[test]
fn dumps_are_npy_and_agree_with_each_other() {
    let dir = std::env::temp_dir().join(format!("tcgen05-emulate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (d, t) = (dir.join("d.npy"), dir.join("tmem.npy"));
    run(&[
        "emulate",
        "--random-inputs",
        "3",
        "--exec",
        MMA,
        "--dump-d",
        d.to_str().unwrap(),
        "--dump-tmem",
        t.to_str().unwrap(),
    ])
    .code(0);
    let (dd, ds, dbytes) = npy(&d);
    let (td, ts, tbytes) = npy(&t);
    assert_eq!(
        (dd.as_str(), ds.as_str(), dbytes.len()),
        ("<f4", "128, 64, ", 128 * 64 * 4)
    );
    assert_eq!(
        (td.as_str(), ts.as_str(), tbytes.len()),
        ("<u4", "128, 512, ", 128 * 512 * 4)
    );
    // Layout D: D[m][n] is lane m, column n.
    for (m, n) in [(0usize, 0usize), (127, 63), (40, 17)] {
        let i = (m * 64 + n) * 4;
        let j = (m * 512 + n) * 4;
        assert_eq!(dbytes[i..i + 4], tbytes[j..j + 4]);
    }
    // Column 64 onwards was never written: 0 in the dump.
    assert_eq!(tbytes[64 * 4..65 * 4], [0, 0, 0, 0]);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn program_files_smem_and_tmem_inputs_and_ld() {
    let dir = std::env::temp_dir().join(format!("tcgen05-emulate-p-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A and B all ones (bf16 0x3F80): every D element is K = 16.
    let ones: Vec<u8> = std::iter::repeat_n([0x80u8, 0x3F], 4096 / 2)
        .flatten()
        .collect();
    let a = dir.join("a.bin");
    std::fs::write(&a, &ones).unwrap();
    let prog = dir.join("prog.ptx");
    std::fs::write(
        &prog,
        format!(
            "// a K loop of two MMAs, then warp 1 loads lanes 32-63, columns 0-1\n\
             tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [0x20000], 64;\n\
             {MMA}\n\
             {}\n\
             // @warp 1\n\
             tcgen05.ld.sync.aligned.32x32b.x2.b32 {{%r0, %r1}}, [0x00200000];\n\
             tcgen05.wait::ld.sync.aligned;\n",
            MMA.replace(", 0;", ", 1;")
        ),
    )
    .unwrap();
    let a_at = format!("{}@0", a.display());
    let b_at = format!("{}@0x1000", a.display());
    let d = dir.join("d.npy");
    let r = run(&[
        "emulate",
        "--program",
        prog.to_str().unwrap(),
        "--smem",
        &a_at,
        "--smem",
        &b_at,
        "--dump-d",
        d.to_str().unwrap(),
        "--json",
    ]);
    r.code(0);
    let v = r.json();
    assert_eq!(v["lines"].as_array().unwrap().len(), 5, "{v}");
    assert_eq!(v["lines"][0]["line"], 2);
    let (_, _, bytes) = npy(&d);
    for w in bytes.chunks_exact(4) {
        assert_eq!(f32::from_le_bytes([w[0], w[1], w[2], w[3]]), 32.0);
    }
    // Tensor Memory input: D of an enable-input-d MMA starts from it.
    let t = dir.join("c.npy");
    let mut c = Vec::new();
    c.extend_from_slice(b"\x93NUMPY\x01\x00");
    let header = "{'descr': '<u4', 'fortran_order': False, 'shape': (128, 64), }";
    let pad = 64 - (10 + header.len() + 1) % 64;
    let h = format!("{header}{}\n", " ".repeat(pad % 64));
    c.extend_from_slice(&(h.len() as u16).to_le_bytes());
    c.extend_from_slice(h.as_bytes());
    for _ in 0..128 * 64 {
        c.extend_from_slice(&100f32.to_bits().to_le_bytes());
    }
    std::fs::write(&t, &c).unwrap();
    let t_at = format!("{}@0,0", t.display());
    run(&[
        "emulate",
        "--smem",
        &a_at,
        "--smem",
        &b_at,
        "--tmem",
        &t_at,
        "--exec",
        &MMA.replace(", 0;", ", 1;"),
        "--dump-d",
        d.to_str().unwrap(),
    ])
    .code(0);
    let (_, _, bytes) = npy(&d);
    assert_eq!(
        f32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]),
        116.0
    );
    // Allocation is checked once the program allocates: D at column 64 is outside 0-63.
    std::fs::write(
        &prog,
        format!(
            "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [0x20000], 64;\n{}\n",
            MMA.replace("[0]", "[64]")
        ),
    )
    .unwrap();
    let v = run(&[
        "emulate",
        "--program",
        prog.to_str().unwrap(),
        "--smem",
        &a_at,
        "--smem",
        &b_at,
        "--json",
    ])
    .json();
    assert_eq!(v["errors"][0]["rule"], "tmem-not-allocated", "{v}");
    assert_eq!(v["errors"][0]["line"], 2);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn usage_errors_exit_2_with_one_json_object() {
    for args in [
        &["emulate", "--json"][..],
        &["emulate", "--json", "--program", "/nonexistent/prog.ptx"][..],
        &["emulate", "--json", "--smem", "nofile", "--exec", MMA][..],
        &[
            "emulate",
            "--json",
            "--smem",
            "/nonexistent@0",
            "--exec",
            MMA,
        ][..],
        &[
            "emulate",
            "--json",
            "--tmem",
            "/nonexistent@0",
            "--exec",
            MMA,
        ][..],
        &["emulate", "--json", "--target", "sm_120a", "--exec", MMA][..],
    ] {
        let r = run(args);
        r.code(2);
        let v = r.json();
        let errors = v["errors"].as_array().unwrap();
        assert!(!errors.is_empty(), "{args:?}");
        assert!(errors
            .iter()
            .all(|e| e["message"].as_str().is_some_and(|m| !m.is_empty())));
    }
    let r = run(&["emulate", "--smem", "/nonexistent@0", "--exec", MMA]);
    r.code(2);
    assert!(r.stderr_lines()[0].starts_with("error: cannot read /nonexistent"));
}

#[test]
fn help_has_examples() {
    let r = run(&["emulate", "--help"]);
    r.code(0);
    assert!(r.stdout.contains("Examples:"));
    assert!(r
        .stdout
        .contains("tcgen05 emulate --random-inputs 1 --reference"));
    assert!(r.stdout.contains("Exit status"));
}

/// The forms beyond the dense MMA: a decompressing `tcgen05.cp` of all-ones e2m1 A (code 2,
/// sixteen to an 8-byte chunk half, then 8 bytes of padding), an MMA that reads it from Tensor
/// Memory (D = K = 32, as in NVIDIA's CuTe DSL example `cp_narrow_a_to_tmem_mma.py`), and a
/// sparse `kind::i8` MMA on random inputs whose reference error is 0 (integer arithmetic).
#[test]
fn decompressing_copy_and_sparse_mma() {
    let dir = std::env::temp_dir().join(format!("tcgen05-emulate-sp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let a: Vec<u8> = std::iter::repeat_n([[0x22u8; 8], [0u8; 8]].concat(), 4096 / 16)
        .flatten()
        .collect();
    let a_file = dir.join("a.bin");
    std::fs::write(&a_file, &a).unwrap();
    let b_file = dir.join("b.bin");
    std::fs::write(&b_file, [0x38u8; 2048]).unwrap(); // e4m3 1.0
                                                      // No swizzle, K-major: row r's two chunks at r % 8 * 16 + r / 8 * 128 and 2048 further.
    let desc = |start: u64, lbo: u64, sbo: u64| {
        (start >> 4) | (lbo >> 4) << 16 | (sbo >> 4) << 32 | 1 << 46
    };
    let idesc = tcgen05::instruction_descriptor::InstructionDescriptor::new(
        tcgen05::instruction_descriptor::IdescFields::new(
            tcgen05::mma::Kind::F8f6f4,
            tcgen05::mma::ElementType::F32,
            tcgen05::mma::ElementType::E2m1,
            tcgen05::mma::ElementType::E4m3,
            128,
            64,
        ),
    )
    .bits();
    let prog = dir.join("cp.ptx");
    std::fs::write(
        &prog,
        format!(
            "tcgen05.cp.cta_group::1.128x256b.b8x16.b4x16_p64 [0x00000080], {:#x};\n\
             tcgen05.mma.cta_group::1.kind::f8f6f4 [0], [0x00000080], {:#x}, {idesc:#x}, 0;\n",
            desc(0, 2048, 128),
            desc(0x2000, 1024, 128)
        ),
    )
    .unwrap();
    let d = dir.join("d.npy");
    let r = run(&[
        "emulate",
        "--program",
        prog.to_str().unwrap(),
        "--smem",
        &format!("{}@0", a_file.display()),
        "--smem",
        &format!("{}@0x2000", b_file.display()),
        "--dump-d",
        d.to_str().unwrap(),
    ]);
    r.code(0);
    assert!(
        r.stdout.contains("decompressed from 4-bit elements"),
        "{}",
        r.stdout
    );
    let (descr, shape, bytes) = npy(&d);
    assert_eq!((descr.as_str(), shape.as_str()), ("<f4", "128, 64, "));
    for w in bytes.chunks_exact(4) {
        assert_eq!(f32::from_le_bytes([w[0], w[1], w[2], w[3]]), 32.0);
    }
    // Sparse i8 with random inputs: the metadata is filled with meaningful values.
    let sp = format!(
        "tcgen05.mma.sp.cta_group::1.kind::i8 [0], {:#x}, {:#x}, [0x00000100], {:#x}, 0;",
        desc(0, 0x1000, 128),
        desc(0x8000, 0x1000, 128),
        tcgen05::instruction_descriptor::InstructionDescriptor::new(
            tcgen05::instruction_descriptor::IdescFields::new(
                tcgen05::mma::Kind::I8,
                tcgen05::mma::ElementType::S32,
                tcgen05::mma::ElementType::S8,
                tcgen05::mma::ElementType::S8,
                128,
                64,
            )
            .with_sparse(true, 0),
        )
        .bits()
    );
    let v = run(&[
        "emulate",
        "--random-inputs",
        "5",
        "--reference",
        "--json",
        "--exec",
        &sp,
    ])
    .json();
    let text = v.to_string();
    assert!(
        text.contains("128x64x64 s32 += s8 x s8 (sparse A, metadata read)"),
        "{v}"
    );
    assert_eq!(v["reference"]["max_ulps"], 0, "{v}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Writes `text` to a fresh temporary file and returns its path.
fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tcgen05-emu-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn runs_its_own_ptx_kernel_output() {
    // `tcgen05 ptx kernel` writes a whole module (.version, .target, .entry, .reg, .shared,
    // labels, mbarrier and bar instructions); emulate runs its tcgen05 instructions with the
    // values of its registers and variables given by --reg.
    let k = run(&[
        "ptx", "kernel", "--kind", "f16", "--m", "128", "--n", "64", "--d-type", "f32", "--a-type",
        "bf16", "--b-type", "bf16",
    ]);
    k.code(0);
    let path = temp_file("kernel.ptx", &k.stdout);
    let p = path.to_str().unwrap();
    // Without values: the first tcgen05 instruction's variable is named, with its line; no
    // value is invented.
    let r = run(&["emulate", "--json", "--random-inputs", "1", "--program", p]);
    r.code(1);
    let v = r.json();
    let e = &v["errors"][0];
    assert_eq!(e["rule"], "register");
    assert_eq!(e["field"], "tmem_slot");
    let alloc_line = k
        .stdout
        .lines()
        .position(|l| l.contains("tcgen05.alloc"))
        .unwrap()
        + 1;
    assert_eq!(e["line"], alloc_line);
    assert!(!r.stdout.contains("0x0\""), "{}", r.stdout);
    // With values: every tcgen05 instruction runs; D is the M x N = 128 x 64 f32 the kernel's
    // instruction descriptor says (0x08100490, PTX ISA Table 42).
    let r = run(&[
        "emulate",
        "--json",
        "--random-inputs",
        "1",
        "--program",
        p,
        "--reg",
        "tmem_slot=0x100",
        "--reg",
        "taddr=0",
        "--reg",
        "leader=1",
        "--reg",
        "a_desc=0x4000404000010040",
        "--reg",
        "b_desc=0x4000404000010840",
        "--reg",
        "mbar=0x200",
    ]);
    r.code(0);
    let v = r.json();
    assert_eq!(v["d"]["m"], 128);
    assert_eq!(v["d"]["n"], 64);
    assert_eq!(v["d"]["type"], "f32");
    let ran: Vec<&str> = v["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["instruction"].as_str().unwrap())
        .collect();
    let in_file = k
        .stdout
        .lines()
        .filter(|l| {
            l.trim_start()
                .trim_start_matches("@leader ")
                .starts_with("tcgen05.")
        })
        .count();
    assert_eq!(ran.len(), in_file, "{ran:?}");
    assert!(v["not_executed"].as_u64().unwrap() > 0);
}

#[test]
fn compiler_output_is_read_and_registers_are_named() {
    // Triton's sample kernel: its first tcgen05 instruction (line 35) is guarded by %p1, whose
    // value comes from instructions the model does not execute.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let file = root.join("examples/kernels/triton_gemm_bf16.ptx");
    let f = file.to_str().unwrap();
    let r = run(&["emulate", "--json", "--random-inputs", "1", "--program", f]);
    r.code(1);
    let v = r.json();
    assert_eq!(v["errors"][0]["line"], 35);
    assert_eq!(v["errors"][0]["field"], "%p1");
    // Given the guard, the next missing value is the alloc's address register.
    let r = run(&[
        "emulate",
        "--json",
        "--random-inputs",
        "1",
        "--program",
        f,
        "--reg",
        "%p1=1",
    ]);
    r.code(1);
    assert_eq!(r.json()["errors"][0]["field"], "%r22");
    // A guard of 0 skips the instruction.
    let r = run(&[
        "emulate",
        "--json",
        "--random-inputs",
        "1",
        "--program",
        f,
        "--reg",
        "%p1=0",
    ]);
    assert_ne!(r.json()["errors"][0]["line"], 35);
}

#[test]
fn one_cta_group_per_kernel() {
    // PTX ISA 9.7.16: all tcgen05 instructions of a kernel use the same .cta_group.
    let r = run(&[
        "emulate",
        "--json",
        "--exec",
        "tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;",
        "--exec",
        "tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;",
    ]);
    r.code(1);
    let v = r.json();
    assert_eq!(v["errors"][0]["rule"], "cta_group");
    assert_eq!(v["errors"][0]["line"], 2);
    assert_eq!(v["lines"].as_array().unwrap().len(), 1);
}

#[test]
fn cp_4x256b_copies_four_rows() {
    // tcgen05.cp .4x256b (PTX ISA 9.7.16.2.3): 4 rows of 256 bits from shared memory, through a
    // no-swizzle K-major descriptor (start 0, LBO 128, SBO 256: 0x0000401000080000), into
    // lanes 0, 32, 64 and 96 (one row per 32-lane subpartition, as CUTLASS's SM100 copy atom
    // places it). Row r's byte b lies at (b / 16) * LBO + r * 16 + b % 16 (the canonical
    // no-swizzle layout's core matrix: 8 rows of 16 bytes).
    let data: Vec<u8> = (0..512u32).map(|i| (i % 251) as u8).collect();
    let smem = temp_file("cp.bin", "");
    std::fs::write(&smem, &data).unwrap();
    let dump = smem.with_file_name("cp_tmem.npy");
    let r = run(&[
        "emulate",
        "--smem",
        &format!("{}@0", smem.to_str().unwrap()),
        "--exec",
        "tcgen05.cp.cta_group::1.4x256b [0], 0x0000401000080000;",
        "--dump-tmem",
        dump.to_str().unwrap(),
    ]);
    r.code(0);
    let (_, _, cells) = npy(&dump);
    let cell = |lane: usize, col: usize| {
        let at = (lane * 512 + col) * 4;
        u32::from_le_bytes([cells[at], cells[at + 1], cells[at + 2], cells[at + 3]])
    };
    for row in 0..4usize {
        for col in 0..8usize {
            let byte = |b: usize| data[(b / 16) * 128 + row * 16 + b % 16];
            let want = u32::from_le_bytes([
                byte(4 * col),
                byte(4 * col + 1),
                byte(4 * col + 2),
                byte(4 * col + 3),
            ]);
            assert_eq!(cell(32 * row, col), want, "row {row} column {col}");
        }
        assert_eq!(cell(32 * row + 1, 0), 0, "only one lane per subpartition");
    }
}

#[test]
fn m64_lane_alignment_of_d_and_a() {
    // M = 64 without .ws is data-path layout F, half the data path: D's address, and A's in
    // Tensor Memory, has lane 0 or 16 (PTX ISA 9.7.16.10.5). 0x04100490: kind::f16, bf16 x
    // bf16 -> f32, M = 64, N = 64 (Table 42).
    let mma = |d: &str, a: &str| {
        format!("tcgen05.mma.cta_group::1.kind::f16 [{d}], {a}, 0x0000401000080100, 0x04100490, 0;")
    };
    for (d, a, bad) in [
        ("0x00000000", "0x0000401000080000", vec![]),
        ("0x00100000", "0x0000401000080000", vec![]),
        ("0x00080000", "0x0000401000080000", vec!["d_tmem"]),
        ("0x00100000", "[0x00100040]", vec![]),
        ("0x00000000", "[0x00080040]", vec!["a_tmem"]),
        ("0x00180000", "[0x00040040]", vec!["d_tmem", "a_tmem"]),
    ] {
        let r = run(&[
            "emulate",
            "--json",
            "--random-inputs",
            "1",
            "--exec",
            &mma(d, a),
        ]);
        let v = r.json();
        let fields: Vec<&str> = v["errors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["field"].as_str().unwrap())
            .collect();
        assert_eq!(fields, bad, "{d} {a}: {v}");
        r.code(if bad.is_empty() { 0 } else { 1 });
        if !bad.is_empty() {
            assert_eq!(v["errors"][0]["source"], "PTX ISA 9.7.16.10.5");
        }
    }
}

/// A little-endian C-order `.npy` of u32 (NumPy format 1.0) with `shape` (lanes, columns).
fn npy_u32(path: &std::path::Path, lanes: usize, cols: usize, f: impl Fn(usize, usize) -> u32) {
    let mut c = Vec::new();
    c.extend_from_slice(b"\x93NUMPY\x01\x00");
    let header =
        format!("{{'descr': '<u4', 'fortran_order': False, 'shape': ({lanes}, {cols}), }}");
    let pad = 64 - (10 + header.len() + 1) % 64;
    let h = format!("{header}{}\n", " ".repeat(pad % 64));
    c.extend_from_slice(&(h.len() as u16).to_le_bytes());
    c.extend_from_slice(h.as_bytes());
    for l in 0..lanes {
        for col in 0..cols {
            c.extend_from_slice(&f(l, col).to_le_bytes());
        }
    }
    std::fs::write(path, c).unwrap();
}

#[test]
fn registers_and_both_ctas_tensor_memory_dumped() {
    // tcgen05.ld .32x32b (PTX ISA 9.7.16.8.3, Figure of shape 32x32b): thread t of the warp
    // reads lane t (of the warp's quadrant), register j column j.
    let t = temp_file("cells.npy", "");
    npy_u32(&t, 32, 4, |l, c| (1000 * l + c) as u32);
    let regs = t.with_file_name("regs.json");
    let peer = t.with_file_name("peer.npy");
    let own = t.with_file_name("own.npy");
    let r = run(&[
        "emulate",
        "--tmem",
        &format!("{}@0,0", t.display()),
        "--tmem",
        &format!("{}@32,8@1", t.display()),
        "--exec",
        "tcgen05.ld.sync.aligned.32x32b.x2.b32 {r0, r1}, [0];",
        "--dump-regs",
        regs.to_str().unwrap(),
        "--dump-tmem",
        &format!("{}@1", peer.display()),
        "--dump-tmem",
        own.to_str().unwrap(),
    ]);
    r.code(0);
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&regs).unwrap()).unwrap();
    let w = &v["ctas"][0]["warps"][0];
    assert_eq!(w["warp"], 0);
    for t in 0..32u64 {
        assert_eq!(w["registers"]["r0"][t as usize], 1000 * t);
        assert_eq!(w["registers"]["r1"][t as usize], 1000 * t + 1);
    }
    assert_eq!(v["ctas"][1]["warps"].as_array().unwrap().len(), 0);
    let cell = |b: &[u8], lane: usize, col: usize| {
        let at = (lane * 512 + col) * 4;
        u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
    };
    let (_, shape, p) = npy(&peer);
    assert_eq!(shape, "128, 512, ");
    let (_, _, o) = npy(&own);
    // The peer's copy sits at lane 32, column 8; CTA 0's at lane 0, column 0.
    assert_eq!(cell(&p, 32 + 5, 8 + 3), 5003);
    assert_eq!(cell(&p, 5, 3), 0);
    assert_eq!(cell(&o, 5, 3), 5003);
    assert_eq!(cell(&o, 32 + 5, 8 + 3), 0);
}

/// A little-endian C-order 1-D `.npy` of `n` items of dtype `descr`, all bytes `byte`.
fn npy_raw(path: &std::path::Path, descr: &str, item: usize, n: usize, byte: u8) {
    let mut c = Vec::new();
    c.extend_from_slice(b"\x93NUMPY\x01\x00");
    let header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': ({n},), }}");
    let pad = 64 - (10 + header.len() + 1) % 64;
    let h = format!("{header}{}\n", " ".repeat(pad % 64));
    c.extend_from_slice(&(h.len() as u16).to_le_bytes());
    c.extend_from_slice(h.as_bytes());
    c.extend(std::iter::repeat_n(byte, item * n));
    std::fs::write(path, c).unwrap();
}

#[test]
fn npy_dtype_must_hold_the_descriptors_element_type() {
    // MMA reads A (at 0x0) and B (at 0x1000) as bf16 (0x08100490, PTX ISA Table 42): float32
    // and float16 arrays are other types; uint16 (the codes) and void-2 (ml_dtypes' bfloat16)
    // hold them.
    let base = temp_file("a.npy", "");
    for (descr, item, ok) in [
        ("<f4", 4, false),
        ("<f2", 2, false),
        ("|u1", 1, false),
        ("<u2", 2, true),
        ("|V2", 2, true),
    ] {
        let f = base.with_file_name(format!("a_{}.npy", descr.replace(['<', '|'], "")));
        npy_raw(&f, descr, item, 8192 / item, 0x3F);
        let r = run(&[
            "emulate",
            "--json",
            "--random-inputs",
            "1",
            "--smem",
            &format!("{}@0", f.display()),
            "--exec",
            MMA,
        ]);
        let v = r.json();
        if ok {
            r.code(0);
            continue;
        }
        r.code(1);
        let e = &v["errors"][0];
        assert_eq!(e["rule"], "npy_dtype", "{descr}: {v}");
        assert_eq!(e["field"], "a");
        let msg = e["message"].as_str().unwrap();
        assert!(msg.contains(descr) && msg.contains("bf16"), "{msg}");
    }
}

/// A little-endian C-order 2-D `.npy` of u16 codes.
fn npy_u16(path: &std::path::Path, rows: usize, cols: usize, f: impl Fn(usize, usize) -> u16) {
    let mut c = Vec::new();
    c.extend_from_slice(b"\x93NUMPY\x01\x00");
    let header = format!("{{'descr': '<u2', 'fortran_order': False, 'shape': ({rows}, {cols}), }}");
    let pad = 64 - (10 + header.len() + 1) % 64;
    let h = format!("{header}{}\n", " ".repeat(pad % 64));
    c.extend_from_slice(&(h.len() as u16).to_le_bytes());
    c.extend_from_slice(h.as_bytes());
    for r in 0..rows {
        for k in 0..cols {
            c.extend_from_slice(&f(r, k).to_le_bytes());
        }
    }
    std::fs::write(path, c).unwrap();
}

#[test]
fn a_and_b_placed_by_the_descriptors() {
    // A (128 x 16) and B (64 x 16) of small integers in bf16 (the high half of binary32), put
    // where 128-byte-swizzled K-major descriptors read them; every product and sum is exact,
    // so D = A B^T exactly (an independent matrix product below).
    let av = |i: usize, k: usize| ((i + 2 * k) % 5) as i32 - 2;
    let bv = |j: usize, k: usize| ((3 * j + k) % 7) as i32 - 3;
    let bf16 = |v: i32| ((v as f32).to_bits() >> 16) as u16;
    let a = temp_file("A.npy", "");
    let b = a.with_file_name("B.npy");
    let d = a.with_file_name("D.npy");
    npy_u16(&a, 128, 16, |i, k| bf16(av(i, k)));
    npy_u16(&b, 64, 16, |j, k| bf16(bv(j, k)));
    // Start 0x400 and 0x8400, LBO 16, SBO 1024, 128B swizzle (Table 40).
    let mma = "tcgen05.mma.cta_group::1.kind::f16 [0], 0x4000404000010040, 0x4000404000010840, 0x08100490, 0;";
    let r = run(&[
        "emulate",
        "--a",
        a.to_str().unwrap(),
        "--b",
        b.to_str().unwrap(),
        "--exec",
        mma,
        "--dump-d",
        d.to_str().unwrap(),
    ]);
    r.code(0);
    let (_, _, bytes) = npy(&d);
    for i in 0..128 {
        for j in 0..64 {
            let want: i32 = (0..16).map(|k| av(i, k) * bv(j, k)).sum();
            let at = (i * 64 + j) * 4;
            let got = f32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
            assert_eq!(got, want as f32, "D[{i}][{j}]");
        }
    }
    // The placement against the canonical layout's formula (PTX ISA 9.7.16.3.3, no swizzle,
    // K-major, 16-byte rows of 8 bf16 in core matrices of 8 rows): element (j, k) of B at
    // start + (k / 8) * LBO + (j / 8) * SBO + (j % 8) * 16 + (k % 8) * 2. B is written by hand
    // there, A by --a: a K permutation in the placement of A alone would change D.
    let (lbo, sbo, b_start) = (128usize, 256usize, 0x1000usize);
    let mut smem = vec![0u8; b_start + 8 * sbo];
    for j in 0..64 {
        for k in 0..16 {
            let at = b_start + (k / 8) * lbo + (j / 8) * sbo + (j % 8) * 16 + (k % 8) * 2;
            smem[at..at + 2].copy_from_slice(&bf16(bv(j, k)).to_le_bytes());
        }
    }
    let raw = a.with_file_name("B.bin");
    std::fs::write(&raw, &smem[b_start..]).unwrap();
    let r = run(&[
        "emulate",
        "--a",
        a.to_str().unwrap(),
        "--smem",
        &format!("{}@0x1000", raw.display()),
        "--exec",
        // 0x0000401000080000: start 0, LBO 128, SBO 256, no swizzle; B's at 0x1000.
        "tcgen05.mma.cta_group::1.kind::f16 [0], 0x0000401000080000, 0x0000401000080100, 0x08100490, 0;",
        "--dump-d",
        d.to_str().unwrap(),
    ]);
    r.code(0);
    let (_, _, bytes) = npy(&d);
    for i in 0..128 {
        for j in 0..64 {
            let want: i32 = (0..16).map(|k| av(i, k) * bv(j, k)).sum();
            let at = (i * 64 + j) * 4;
            let got = f32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
            assert_eq!(got, want as f32, "hand-laid B: D[{i}][{j}]");
        }
    }
    // A wrong shape is refused, naming what the MMA reads.
    npy_u16(&a, 64, 16, |i, k| bf16(av(i, k)));
    let r = run(&[
        "emulate",
        "--json",
        "--a",
        a.to_str().unwrap(),
        "--exec",
        mma,
    ]);
    r.code(1);
    let v = r.json();
    assert_eq!(v["errors"][0]["field"], "a");
    assert!(v["errors"][0]["message"]
        .as_str()
        .unwrap()
        .contains("128 x 16"));
}
