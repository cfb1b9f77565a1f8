//! Device functions (PTX ISA 7: `.func` with `.param` arguments and return values, `call`,
//! `ret`): how a module's functions are read, linked into each kernel, and called.
//!
//! Each thread has a call area: the formal parameters and return values of every function and
//! the `.param` variables a body declares for its calls, each at its own offset
//! ([`CALL_BASE`] + offset in the `.param` space). `call` copies the argument variables into the
//! callee's formal parameters, saves the callee's registers and call area (so that a recursive
//! activation does not overwrite its caller's) and jumps; `ret` copies the return values into
//! the caller's variables and restores what the call saved. The functions' instructions are
//! appended to every kernel's, so one program counter reaches both. Recursion is bounded by the
//! run's step limit and by [`MAX_DEPTH`].

use crate::error::{invalid, unsupported, RunError};
use crate::op::{Op, OpKind};

/// The `.param`-space address of a thread's call area (kernel parameters lie below it).
pub const CALL_BASE: u32 = 0x8000_0000;

/// The deepest call chain a thread may build.
pub const MAX_DEPTH: usize = 4096;

/// One `.param` variable of the call area: its name, offset in the area and size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallVar {
    /// The name as declared.
    pub name: String,
    /// Offset in the call area.
    pub offset: u32,
    /// Size in bytes.
    pub size: u32,
}

/// A function's signature and where its state lies.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Signature {
    /// The name.
    pub name: String,
    /// Return values, in order.
    pub rets: Vec<CallVar>,
    /// Formal parameters, in order.
    pub params: Vec<CallVar>,
}

/// A function read from the module: its signature, instructions and state ranges.
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    /// Signature.
    pub sig: Signature,
    /// Its instructions (branch targets relative to its first).
    pub ops: Vec<Op>,
    /// Its register slots, `[first, end)`.
    pub regs: (u32, u32),
    /// Its part of the call area (formals, return values, call-site variables), `[first, end)`.
    pub area: (u32, u32),
}

/// A direct `call`, decoded; its target is resolved when the module is linked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    /// The callee's name.
    pub callee: String,
    /// The callee's first instruction in the linked program (`usize::MAX` until linked).
    pub target: usize,
    /// The callee's register slots, saved and restored around the call.
    pub regs: (u32, u32),
    /// The callee's call area, saved and restored around the call.
    pub area: (u32, u32),
    /// Argument copies: (caller variable offset, callee formal offset, bytes).
    pub args: Vec<(u32, u32, u32)>,
    /// Return copies: (callee return offset, caller variable offset, bytes).
    pub rets: Vec<(u32, u32, u32)>,
    /// The caller's variables, bound to the callee when linking: (returns, arguments).
    pub vars: (Vec<CallVar>, Vec<CallVar>),
}

/// Reads `[.visible|.weak|.extern] .func [(.param .T ret, ...)] name [(.param .T p, ...)]`.
/// Returns the name and the two declaration lists as written.
pub(crate) fn header(
    line: u32,
    text: &str,
) -> Result<(String, Vec<String>, Vec<String>), RunError> {
    let after = text
        .split_once(".func")
        .map(|(_, r)| r.trim_start())
        .unwrap_or("");
    let (rets, rest) = if let Some(r) = after.strip_prefix('(') {
        let (list, rest) = r
            .split_once(')')
            .ok_or_else(|| invalid(line, text, "unclosed return list"))?;
        (split_list(list), rest.trim_start())
    } else {
        (Vec::new(), after)
    };
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
        .unwrap_or(rest.len());
    let name = &rest[..end];
    if name.is_empty() {
        return Err(invalid(line, text, ".func without a name"));
    }
    let params = match rest[end..].trim_start().strip_prefix('(') {
        Some(r) => split_list(r.split_once(')').map_or(r, |(l, _)| l)),
        None => Vec::new(),
    };
    Ok((name.to_string(), rets, params))
}

fn split_list(list: &str) -> Vec<String> {
    list.split(',')
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(str::to_string)
        .collect()
}

/// Reads `call[.uni] [(ret, ...),] name[, (arg, ...)];` (direct calls only); `var` finds the
/// caller's `.param` variables.
pub(crate) fn parse_call(
    line: u32,
    text: &str,
    var: &dyn Fn(&str) -> Option<CallVar>,
) -> Result<Call, RunError> {
    let body = text.trim().trim_end_matches(';').trim();
    let rest = body
        .strip_prefix("call.uni")
        .or_else(|| body.strip_prefix("call"))
        .ok_or_else(|| invalid(line, text, "not a call"))?
        .trim_start();
    let (rets, rest) = match rest.strip_prefix('(') {
        Some(r) => {
            let (list, rest) = r
                .split_once(')')
                .ok_or_else(|| invalid(line, text, "unclosed return list"))?;
            let rest = rest
                .trim_start()
                .strip_prefix(',')
                .unwrap_or(rest)
                .trim_start();
            (split_list(list), rest)
        }
        None => (Vec::new(), rest),
    };
    let (callee, rest) = match rest.split_once(',') {
        Some((c, r)) => (c.trim(), r.trim()),
        None => (rest.trim(), ""),
    };
    if callee.starts_with('%') || rest.contains("prototype") || callee.is_empty() {
        return Err(unsupported(
            line,
            text,
            "indirect calls (through a register, with a prototype) are not modelled",
        ));
    }
    let args = match rest.strip_prefix('(') {
        Some(r) => split_list(r.trim_end_matches(')')),
        None if rest.is_empty() => Vec::new(),
        None => return Err(invalid(line, text, "call arguments are a (list)")),
    };
    let find = |n: &String| {
        var(n).ok_or_else(|| {
            invalid(
                line,
                n,
                "a call argument must be a .param variable declared before the call (PTX ISA 9.7.12.10)",
            )
        })
    };
    Ok(Call {
        callee: callee.to_string(),
        target: usize::MAX,
        regs: (0, 0),
        area: (0, 0),
        args: Vec::new(),
        rets: Vec::new(),
        vars: (
            rets.iter().map(find).collect::<Result<_, _>>()?,
            args.iter().map(find).collect::<Result<_, _>>()?,
        ),
    })
}

/// Binds a call to its callee: the copies of arguments and return values, and the state the
/// call saves.
fn bind(line: u32, call: &mut Call, callee: &Function) -> Result<(), RunError> {
    let (rets, args) = &call.vars;
    if rets.len() != callee.sig.rets.len() || args.len() != callee.sig.params.len() {
        return Err(invalid(
            line,
            &call.callee,
            "the call's argument or return count differs from the function's declaration (PTX ISA 9.7.12.10)",
        ));
    }
    call.args = args
        .iter()
        .zip(&callee.sig.params)
        .map(|(v, f)| (v.offset, f.offset, v.size.min(f.size)))
        .collect();
    call.rets = rets
        .iter()
        .zip(&callee.sig.rets)
        .map(|(v, f)| (f.offset, v.offset, v.size.min(f.size)))
        .collect();
    call.regs = callee.regs;
    call.area = callee.area;
    Ok(())
}

/// Appends every function to a kernel's instructions and points each call at its callee.
pub(crate) fn link(ops: &mut Vec<Op>, funcs: &[Function]) -> Result<(), RunError> {
    let mut starts = Vec::new();
    for f in funcs {
        let base = ops.len();
        starts.push(base);
        for op in &f.ops {
            let mut op = op.clone();
            if let OpKind::Bra { target } = &mut op.kind {
                *target += base;
            }
            if let OpKind::BrxIdx { targets, .. } = &mut op.kind {
                targets.iter_mut().for_each(|t| *t += base);
            }
            ops.push(op);
        }
    }
    for op in ops.iter_mut() {
        if let OpKind::Call(c) = &mut op.kind {
            let i = funcs
                .iter()
                .position(|f| f.sig.name == c.callee)
                .ok_or_else(|| {
                    invalid(
                        op.line,
                        &c.callee,
                        "call of a function the module does not define",
                    )
                })?;
            bind(op.line, c, &funcs[i])?;
            c.target = starts[i];
        }
    }
    Ok(())
}
