//! `tcgen05.alloc` against `tcgen05.dealloc` and `tcgen05.relinquish_alloc_permit` on every
//! path of a kernel (PTX ISA 9.7.16.7.1: all Tensor Memory allocated must be deallocated before
//! the kernel exits; no allocation after the permit is relinquished).
//!
//! The paths are those of the kernel's control-flow graph (labels, `bra`, `@p bra`, `ret`,
//! `exit`, fall-through; a `call` of a function whose only Tensor Memory instructions are
//! allocations, deallocations or relinquishes counts as one). Guards and branches are read
//! path by path on their predicate registers: a path that takes `@%p` once takes it again
//! until `%p` is written. A path is reported only when it is sure: every branch after the
//! event it starts from is decided by a predicate already decided on the path, or (for an
//! allocation every path of the kernel executes) by any value, or cannot decide whether an
//! event runs (a branch that neither crosses an event or an exit nor goes to an exit, such as
//! most loops' back edges). Otherwise the path is counted as
//! not decided: compilers let one warp allocate and deallocate behind predicates computed
//! twice from the warp index, which a reader of the text cannot relate.

use alloc::collections::BTreeSet;
use alloc::vec::Vec;

use crate::ptx_reader::{Function, FunctionKind, Instruction, Operand};

/// The path states explored per kernel before the kernel is counted as not decided.
const MAX_STATES: usize = 50_000;

/// The work per kernel (each state weighs one plus its decided predicates) before the kernel
/// is counted as not decided: bounds the time on a kernel of many guarded allocations.
const MAX_WORK: usize = 1_000_000;

/// What a path found wrong: the rule, the instruction it starts from (an index into the
/// function's instructions) and the other line it names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Problem {
    /// An allocation with no deallocation after it on a path to the exit at the line.
    Leak { alloc: usize, exit_line: u32 },
    /// A second deallocation (at index `dealloc`) after one allocation.
    DoubleDealloc { alloc: usize, dealloc: usize },
    /// An allocation after `tcgen05.relinquish_alloc_permit` (at index `relinquish`).
    AfterRelinquish { alloc: usize, relinquish: usize },
}

/// The outcome for one kernel: the sure problems, and how many possible ones were not decided.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Pairing {
    /// Problems on a sure path, one per rule and starting instruction.
    pub problems: Vec<Problem>,
    /// Possible problems on paths that rely on a branch this reading cannot decide, or kernels
    /// whose control flow it cannot follow.
    pub undecided: usize,
}

/// A Tensor Memory event of one instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Event {
    Alloc,
    Dealloc,
    Relinquish,
    /// A call of a function with several kinds of events: not followed.
    Mixed,
}

fn tcgen05_event(ins: &Instruction<'_>) -> Option<Event> {
    let rest = ins.opcode.strip_prefix("tcgen05.")?;
    let op = rest.split('.').next()?;
    match op {
        "alloc" => Some(Event::Alloc),
        "dealloc" => Some(Event::Dealloc),
        "relinquish_alloc_permit" => Some(Event::Relinquish),
        _ => None,
    }
}

/// The event of a function as a whole, when it has any.
fn summary(f: &Function<'_>) -> Option<Event> {
    let mut found = None;
    for e in f.instructions.iter().filter_map(tcgen05_event) {
        match found {
            None => found = Some(e),
            Some(x) if x == e => {}
            Some(_) => return Some(Event::Mixed),
        }
    }
    found
}

/// Where control goes after an instruction that executes.
#[derive(Clone, Copy)]
enum Flow {
    Next,
    Jump(usize),
    Exit,
    /// `trap`: the kernel stops; nothing is owed.
    Stop,
    /// A branch this reading cannot follow (`brx.idx`, an unknown label).
    Unknown,
}

fn flow(ins: &Instruction<'_>, f: &Function<'_>) -> Flow {
    match ins.base() {
        "bra" => match ins.operands.first() {
            Some(Operand::Name(l)) => f
                .labels
                .iter()
                .find(|(n, _)| n == l)
                .map_or(Flow::Unknown, |&(_, at)| Flow::Jump(at)),
            _ => Flow::Unknown,
        },
        "brx" => Flow::Unknown,
        "ret" | "exit" => Flow::Exit,
        "trap" => Flow::Stop,
        _ => Flow::Next,
    }
}

/// One path's position and what it owes.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct State<'a> {
    at: usize,
    /// Allocations not yet deallocated (at most 3 are told apart).
    open: u8,
    /// The allocation the path tracks (the first of those open).
    alloc: Option<usize>,
    /// The tracked allocation is conditional (guarded, or not on every path of the kernel).
    conditional: bool,
    /// A branch on an undecided predicate since the tracked allocation.
    free_alloc: bool,
    relinquish: Option<usize>,
    /// A branch on an undecided predicate since the relinquish.
    free_relinquish: bool,
    /// Predicates decided on the path, by name.
    preds: Vec<(&'a str, bool)>,
}

impl<'a> State<'a> {
    fn decided(&self, p: &str) -> Option<bool> {
        self.preds.iter().find(|(n, _)| *n == p).map(|&(_, v)| v)
    }

    fn decide(&mut self, p: &'a str, v: bool) {
        self.preds.retain(|(n, _)| *n != p);
        self.preds.push((p, v));
        self.preds.sort_unstable();
    }

    fn made_free_choice(&mut self) {
        self.free_alloc |= self.open > 0;
        self.free_relinquish |= self.relinquish.is_some();
    }
}

/// Checks the pairing of one kernel's allocations. `module` holds the functions its `call`s
/// may name.
pub(super) fn pairing(f: &Function<'_>, module: &[Function<'_>]) -> Pairing {
    let mut out = Pairing::default();
    if f.kind != FunctionKind::Entry {
        return out;
    }
    let events: Vec<Option<Event>> = f
        .instructions
        .iter()
        .map(|i| tcgen05_event(i).or_else(|| call_event(i, module)))
        .collect();
    if !events.contains(&Some(Event::Alloc)) && !events.contains(&Some(Event::Relinquish)) {
        return out;
    }
    if events.contains(&Some(Event::Mixed)) {
        out.undecided = 1;
        return out;
    }
    let flows: Vec<Flow> = f.instructions.iter().map(|i| flow(i, f)).collect();
    let relevant = relevant(f, &events, &flows);
    let mut walk = Walk {
        f,
        events: &events,
        flows: &flows,
        every_path: alloc::vec![None; f.instructions.len()],
        relevant: &relevant,
        alias: aliases(f),
        seen: BTreeSet::new(),
        sure: BTreeSet::new(),
        unsure: BTreeSet::new(),
        gave_up: false,
        work: 0,
    };
    walk.run();
    if walk.gave_up {
        out.undecided = 1;
        return out;
    }
    // One problem per rule and starting instruction.
    let key = |p: &Problem| match *p {
        Problem::Leak { alloc, .. } => (0, alloc),
        Problem::DoubleDealloc { alloc, .. } => (1, alloc),
        Problem::AfterRelinquish { alloc, .. } => (2, alloc),
    };
    for p in &walk.sure {
        if !out.problems.iter().any(|q| key(q) == key(p)) {
            out.problems.push(*p);
        }
    }
    let unsure: BTreeSet<_> = walk
        .unsure
        .iter()
        .map(key)
        .filter(|k| !out.problems.iter().any(|q| key(q) == *k))
        .collect();
    out.undecided = unsure.len();
    out
}

/// True when `f` calls a function of `module` whose Tensor Memory instructions are only
/// deallocations.
pub(super) fn calls_dealloc(f: &Function<'_>, module: &[Function<'_>]) -> bool {
    f.instructions
        .iter()
        .any(|i| call_event(i, module) == Some(Event::Dealloc))
}

/// Predicates computed twice by the same `setp` from the same registers (CuTe DSL tests the
/// warp index once to allocate and again to deallocate), each with the first: where the
/// predicate and each register the `setp` reads are written once in the function, both hold
/// the same value wherever both are written.
fn aliases<'a>(f: &Function<'a>) -> Vec<(&'a str, &'a str)> {
    let mut writes: Vec<&'a str> = Vec::new();
    for ins in &f.instructions {
        if let Some(d) = ins.operands.first() {
            d.destination_names(&mut writes);
        }
    }
    let once = |n: &str| writes.iter().filter(|w| **w == n).count() == 1;
    let mut firsts: Vec<(&'a str, &Instruction<'a>)> = Vec::new();
    let mut out = Vec::new();
    for ins in f.instructions.iter().filter(|i| i.base() == "setp") {
        let Some(Operand::Name(p)) = ins.operands.first() else {
            continue;
        };
        let sources_once = ins.operands[1..].iter().all(|o| match o {
            Operand::Name(n) => once(n),
            Operand::Imm(_) | Operand::Float(_) => true,
            _ => false,
        });
        if ins.guard.is_some() || !once(p) || !sources_once {
            continue;
        }
        let same = |(_, e): &&(&'a str, &Instruction<'a>)| {
            e.opcode == ins.opcode && e.operands[1..] == ins.operands[1..]
        };
        match firsts.iter().find(same) {
            Some(&(first, _)) => out.push((*p, first)),
            None => firsts.push((p, ins)),
        }
    }
    out
}

/// Per instruction, true when its guard can decide whether an event runs or a path skips one:
/// it guards an event or an exit, or a branch to an exit or across an event or an exit.
fn relevant(f: &Function<'_>, events: &[Option<Event>], flows: &[Flow]) -> Vec<bool> {
    let n = f.instructions.len();
    let is_exit = |k: usize| flows.get(k).is_none_or(|x| matches!(x, Flow::Exit));
    // Events and exits before each index, to count those a branch crosses at once.
    let mut before = alloc::vec![0usize; n + 2];
    for k in 0..=n {
        let here = events.get(k).copied().flatten().is_some() || is_exit(k);
        before[k + 1] = before[k] + usize::from(here);
    }
    (0..n)
        .map(|i| {
            if f.instructions[i].guard.is_none() {
                return false;
            }
            if events.get(i).copied().flatten().is_some() {
                return true;
            }
            match flows[i] {
                Flow::Exit | Flow::Unknown => true,
                Flow::Jump(to) => {
                    let (a, b) = (i.min(to), i.max(to).min(n));
                    is_exit(to) || before[b + 1] > before[a]
                }
                Flow::Next | Flow::Stop => false,
            }
        })
        .collect()
}

/// The event of a `call` of a function of the module that has one.
fn call_event(ins: &Instruction<'_>, module: &[Function<'_>]) -> Option<Event> {
    if ins.base() != "call" {
        return None;
    }
    ins.operands.iter().find_map(|o| match o {
        Operand::Name(n) => module.iter().find(|g| g.name == Some(n)).and_then(summary),
        _ => None,
    })
}

struct Walk<'f, 'a> {
    f: &'f Function<'a>,
    events: &'f [Option<Event>],
    /// Per instruction: where control goes.
    flows: &'f [Flow],
    /// Per instruction: [`on_every_path`], once computed.
    every_path: Vec<Option<bool>>,
    /// Per instruction: its guard can decide whether an event runs or is skipped.
    relevant: &'f [bool],
    /// Predicates that hold the same value as an earlier one ([`aliases`]), with it.
    alias: Vec<(&'a str, &'a str)>,
    seen: BTreeSet<State<'a>>,
    sure: BTreeSet<Problem>,
    unsure: BTreeSet<Problem>,
    gave_up: bool,
    /// The work done so far ([`MAX_WORK`]).
    work: usize,
}

impl<'a> Walk<'_, 'a> {
    fn run(&mut self) {
        let start = State {
            at: 0,
            open: 0,
            alloc: None,
            conditional: false,
            free_alloc: false,
            relinquish: None,
            free_relinquish: false,
            preds: Vec::new(),
        };
        let mut work = alloc::vec![start];
        while let Some(s) = work.pop() {
            if self.seen.contains(&s) {
                continue;
            }
            self.work += 1 + s.preds.len();
            if self.seen.len() >= MAX_STATES || self.work >= MAX_WORK {
                self.gave_up = true;
                return;
            }
            self.seen.insert(s.clone());
            self.step(s, &mut work);
            if self.gave_up {
                return;
            }
        }
    }

    /// True when every path of the kernel passes through instruction `k` (computed once).
    fn on_every_path(&mut self, k: usize) -> bool {
        if let Some(Some(v)) = self.every_path.get(k) {
            return *v;
        }
        let v = on_every_path(self.f, self.flows, k);
        if let Some(slot) = self.every_path.get_mut(k) {
            *slot = Some(v);
        }
        v
    }

    /// The predicate whose value `p` holds: itself, or the one it is an alias of.
    fn canonical(&self, p: &'a str) -> &'a str {
        self.alias
            .iter()
            .find(|(a, _)| *a == p)
            .map_or(p, |&(_, c)| c)
    }

    fn report(&mut self, p: Problem, sure: bool) {
        if sure {
            self.sure.insert(p);
        } else {
            self.unsure.insert(p);
        }
    }

    /// The path reaches the end of the kernel at `line`.
    fn exit(&mut self, s: &State<'a>, line: u32) {
        if let (true, Some(alloc)) = (s.open > 0, s.alloc) {
            let sure = !s.free_alloc || !s.conditional;
            self.report(
                Problem::Leak {
                    alloc,
                    exit_line: line,
                },
                sure,
            );
        }
    }

    fn step(&mut self, mut s: State<'a>, work: &mut Vec<State<'a>>) {
        let f = self.f;
        let Some(ins) = f.instructions.get(s.at) else {
            let line = f.instructions.last().map_or(f.line, |i| i.line);
            self.exit(&s, line);
            return;
        };
        if let Some(g) = ins.guard {
            let executes = !g.negated;
            let pred = self.canonical(g.predicate);
            match s.decided(pred) {
                Some(v) if v == executes => {}
                Some(_) => {
                    s.at += 1;
                    work.push(s);
                    return;
                }
                None => {
                    let mut skip = s.clone();
                    skip.at += 1;
                    // Only a guard that can decide whether an event runs, or whether a path
                    // skips one, is recorded: the others are explored both ways, unrecorded.
                    if self.relevant.get(s.at).copied().unwrap_or(true) {
                        s.made_free_choice();
                        skip.made_free_choice();
                        skip.decide(pred, !executes);
                        s.decide(pred, executes);
                    }
                    work.push(skip);
                }
            }
        }
        let guarded = ins.guard.is_some();
        if let Some(e) = self.events.get(s.at).copied().flatten() {
            if !self.event(&mut s, e, guarded) {
                return;
            }
        }
        let mut written = Vec::new();
        if let Some(d) = ins.operands.first() {
            d.destination_names(&mut written);
        }
        // Writing an alias writes the value its original holds already.
        written.retain(|w| self.canonical(w) == *w);
        s.preds.retain(|(n, _)| !written.contains(n));
        match self.flows[s.at] {
            Flow::Next => {
                s.at += 1;
                work.push(s);
            }
            Flow::Jump(to) => {
                s.at = to;
                work.push(s);
            }
            Flow::Exit => self.exit(&s, ins.line),
            Flow::Stop => {}
            Flow::Unknown => self.gave_up = true,
        }
    }

    /// Applies an event; false when the path stops here (a double deallocation is reported
    /// once, not followed by what it causes).
    fn event(&mut self, s: &mut State<'a>, e: Event, guarded: bool) -> bool {
        match e {
            Event::Alloc => {
                if let Some(relinquish) = s.relinquish {
                    let p = Problem::AfterRelinquish {
                        alloc: s.at,
                        relinquish,
                    };
                    self.report(p, !s.free_relinquish);
                }
                if s.open == 0 {
                    s.alloc = Some(s.at);
                    s.free_alloc = false;
                    s.conditional = guarded || !self.on_every_path(s.at);
                }
                s.open = (s.open + 1).min(3);
            }
            Event::Dealloc => match (s.open, s.alloc) {
                (0, Some(alloc)) => {
                    let sure = !s.free_alloc || !s.conditional;
                    let p = Problem::DoubleDealloc {
                        alloc,
                        dealloc: s.at,
                    };
                    self.report(p, sure);
                    return false;
                }
                // Three or more open are not told apart: one more may stay open.
                (3, _) => {}
                (n, _) => s.open = n.saturating_sub(1),
            },
            Event::Relinquish => {
                s.relinquish = Some(s.at);
                s.free_relinquish = false;
            }
            Event::Mixed => self.gave_up = true,
        }
        true
    }
}

/// True when every path from the kernel's entry to an exit passes through instruction `k`
/// (read without predicates: every branch may go either way).
fn on_every_path(f: &Function<'_>, flows: &[Flow], k: usize) -> bool {
    let n = f.instructions.len();
    let mut seen = alloc::vec![false; n + 1];
    let mut work = alloc::vec![0usize];
    while let Some(i) = work.pop() {
        if i == k || seen.get(i).copied().unwrap_or(true) {
            continue;
        }
        seen[i] = true;
        let Some(ins) = f.instructions.get(i) else {
            return false; // fell off the end
        };
        let guarded = ins.guard.is_some();
        match flows[i] {
            Flow::Next => work.push(i + 1),
            Flow::Jump(to) => {
                work.push(to);
                if guarded {
                    work.push(i + 1);
                }
            }
            Flow::Stop => {
                if guarded {
                    work.push(i + 1);
                }
            }
            Flow::Exit | Flow::Unknown => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use alloc::string::String;
    use alloc::vec::Vec;

    use crate::check::{check, Options, Report};

    /// A kernel around `body`, with the registers the tests use; line 6 is the body's first.
    fn kernel(body: &str) -> String {
        let mut s = String::from(
            ".version 8.7\n.target sm_100a\n.address_size 64\n\
             .visible .entry k(.param .u32 n) {\n\
             .reg .b32 %r<16>; .reg .pred %p<8>;\n",
        );
        s.push_str(body);
        s.push_str("}\n");
        s
    }

    /// Every finding as (rule id, line, value as printed).
    fn findings(r: &Report<'_>) -> Vec<(&'static str, u32, String)> {
        r.instructions
            .iter()
            .flat_map(|i| &i.findings)
            .map(|f| (f.rule_id(), f.line, alloc::format!("{f}")))
            .collect()
    }

    const ALLOC: &str = "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r1], 32;\n";
    const DEALLOC: &str = "tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r3, 32;\n";

    #[test]
    fn a_branch_around_the_dealloc_leaks() {
        // Lines: 6 alloc, 7 setp, 8 branch, 9 dealloc, 10 label, 11 ret.
        let src = kernel(&alloc::format!(
            "{ALLOC}setp.eq.s32 %p1, %r2, 0;\n@%p1 bra $L_done;\n{DEALLOC}$L_done:\nret;\n"
        ));
        let r = check(src.as_bytes(), &Options::default());
        let f = findings(&r);
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].0, "check.alloc_leak_on_path");
        assert_eq!(f[0].1, 6);
        assert!(f[0].2.contains("exit at line 11"), "{}", f[0].2);
    }

    #[test]
    fn the_same_guard_on_alloc_and_dealloc_pairs_them() {
        // Triton: both guarded by one predicate, a loop between them.
        let src = kernel(&alloc::format!(
            "mov.u32 %r0, %tid.x;\nsetp.lt.u32 %p1, %r0, 32;\n@%p1 {ALLOC}\
             $L_loop:\nadd.s32 %r5, %r5, 1;\nsetp.lt.s32 %p2, %r5, %r2;\n@%p2 bra $L_loop;\n\
             @%p1 {DEALLOC}ret;\n"
        ));
        let r = check(src.as_bytes(), &Options::default());
        assert!(findings(&r).is_empty(), "{:?}", findings(&r));
        assert_eq!(r.alloc_undecided, 0);
        // The dealloc under the other value of the predicate: a leak on every path that
        // allocates.
        let bad = src.replace("@%p1 tcgen05.dealloc", "@!%p1 tcgen05.dealloc");
        let r = check(bad.as_bytes(), &Options::default());
        assert_eq!(findings(&r)[0].0, "check.alloc_leak_on_path");
    }

    #[test]
    fn one_warp_allocating_and_deallocating_stays_clean() {
        // CuTe DSL / CUTLASS: warp 0 allocates and deallocates, the test of the warp index
        // written twice.
        let src = kernel(&alloc::format!(
            "mov.u32 %r0, %tid.x;\nshr.u32 %r4, %r0, 5;\nsetp.ne.s32 %p1, %r4, 0;\n\
             @%p1 bra $L_a;\n{ALLOC}$L_a:\nbar.sync 0;\nsetp.ne.s32 %p2, %r4, 0;\n\
             @%p2 bra $L_d;\n{DEALLOC}$L_d:\nret;\n"
        ));
        let r = check(src.as_bytes(), &Options::default());
        assert!(findings(&r).is_empty(), "{:?}", findings(&r));
        assert_eq!(r.alloc_undecided, 0);
        // The second test from a register computed again: not related, so not decided, and
        // nothing said.
        let again = src.replace(
            "setp.ne.s32 %p2, %r4, 0;",
            "shr.u32 %r6, %r0, 5;\nsetp.ne.s32 %p2, %r6, 0;",
        );
        let r = check(again.as_bytes(), &Options::default());
        assert!(findings(&r).is_empty(), "{:?}", findings(&r));
        assert_eq!(r.alloc_undecided, 1);
        // The second test the other way round: the allocating warp skips the dealloc.
        let wrong = src.replace("@%p2 bra $L_d", "@!%p2 bra $L_d");
        let r = check(wrong.as_bytes(), &Options::default());
        assert_eq!(
            findings(&r)[0].0,
            "check.alloc_leak_on_path",
            "{:?}",
            findings(&r)
        );
    }

    #[test]
    fn a_second_dealloc_is_a_double_free() {
        // Lines: 6 alloc, 7 dealloc, 8 dealloc.
        let src = kernel(&alloc::format!("{ALLOC}{DEALLOC}{DEALLOC}ret;\n"));
        let r = check(src.as_bytes(), &Options::default());
        let f = findings(&r);
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!((f[0].0, f[0].1), ("check.double_dealloc", 8));
        assert!(f[0].2.contains("alloc at line 6"), "{}", f[0].2);
    }

    #[test]
    fn an_alloc_after_the_relinquish_is_reported() {
        let src = kernel(&alloc::format!(
            "tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;\n{ALLOC}{DEALLOC}ret;\n"
        ));
        let r = check(src.as_bytes(), &Options::default());
        let f = findings(&r);
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!((f[0].0, f[0].1), ("check.alloc_after_relinquish", 7));
        assert!(f[0].2.contains("line 6"), "{}", f[0].2);
        // Relinquished after: what CUTLASS does.
        let after = kernel(&alloc::format!(
            "{ALLOC}tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;\n{DEALLOC}ret;\n"
        ));
        let r = check(after.as_bytes(), &Options::default());
        assert!(findings(&r).is_empty(), "{:?}", findings(&r));
    }

    #[test]
    fn a_called_function_that_deallocates_counts() {
        let src = alloc::format!(
            ".version 8.7\n.target sm_100a\n.address_size 64\n\
             .func free_tmem(.param .b32 a) {{\n.reg .b32 %r<4>;\n{DEALLOC}ret;\n}}\n\
             .visible .entry k() {{\n.reg .b32 %r<4>;\n{ALLOC}call.uni free_tmem, (%r3);\nret;\n}}\n"
        );
        let r = check(src.as_bytes(), &Options::default());
        assert!(findings(&r).is_empty(), "{:?}", findings(&r));
        let without = src.replace("call.uni free_tmem, (%r3);\n", "");
        let r = check(without.as_bytes(), &Options::default());
        assert_eq!(findings(&r)[0].0, "check.alloc_without_dealloc");
    }
}
