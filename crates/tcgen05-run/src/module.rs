//! A PTX module ready to run: its kernels (`.entry`) with their `.param` layouts, registers and
//! decoded instructions, and its `.shared` / `.global` variables (PTX ISA 5 and 11).
//!
//! Directives the run does not need are skipped knowingly: `.loc`, `.file`, `.section` (debug
//! data), `.pragma`, the performance directives of a header (`.maxntid`, `.reqntid`, ...); the
//! cluster directives (`.reqnctapercluster`, `.explicitcluster`) are read. Device functions
//! (`.func`) are read with their `.param` lists and linked into every kernel
//! ([`crate::function`]); `.local` and call-site `.param` variables are placed in each thread's
//! memory. Any other directive or a state space the run does not model stops the read with
//! [`RunError::Unsupported`].

use std::collections::HashMap;

use crate::decode::{decode, Names};
use crate::error::{invalid, unsupported, RunError};
use crate::function::{self, CallVar, Function, Signature, CALL_BASE};
use crate::op::{Op, OpKind, Ty};
use crate::statement::{statements, strip_comments, Stmt};

/// The first address of module-scope `.global` variables.
pub const GLOBAL_VARIABLES_BASE: u64 = 0x0800_0000_0000;

/// One kernel parameter: where it lies in the parameter buffer (PTX ISA 5.1.6.1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    /// The name as declared.
    pub name: String,
    /// Byte offset in the parameter buffer.
    pub offset: u32,
    /// Size in bytes.
    pub size: u32,
    /// Alignment in bytes.
    pub align: u32,
    /// The element type (`.b8` for a byte array).
    pub ty: Ty,
    /// Whether it is declared `.ptr` (a pointer to global memory).
    pub pointer: bool,
}

/// A module-scope `.global` variable with its initial bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlobalVar {
    /// The name.
    pub name: String,
    /// Its address.
    pub address: u64,
    /// Its initial contents (zeros where no initialiser is given).
    pub bytes: Vec<u8>,
}

/// A kernel, decoded.
#[derive(Clone, Debug, PartialEq)]
pub struct Kernel {
    /// Its name.
    pub name: String,
    /// 1-based line of its `.entry`.
    pub line: u32,
    /// Its parameters, in order.
    pub params: Vec<Param>,
    /// Size of the parameter buffer in bytes.
    pub param_bytes: u32,
    /// Registers per thread (predicates included).
    pub registers: u32,
    /// Its instructions, decoded.
    pub ops: Vec<Op>,
    /// Bytes of static shared memory (module- and kernel-scope `.shared` variables).
    pub static_shared: u32,
    /// The cluster shape of `.reqnctapercluster`, if declared (PTX ISA 11.4.3).
    pub cluster: Option<[u32; 3]>,
    /// Whether the kernel declares `.explicitcluster` or `.reqnctapercluster`.
    pub explicit_cluster: bool,
    /// Bytes of `.local` memory per thread (the kernel's `.local` variables).
    pub local_bytes: u32,
    /// Bytes of each thread's call area ([`crate::function`]).
    pub call_bytes: u32,
    /// The target whose tcgen05 rules its run applies: the module's `.target` where the
    /// core's target table has it, else `sm_100a` (the run's `tcgen05/target.rs`).
    pub target: tcgen05::targets::Target,
    /// `.reqntid`, `.maxntid`, `.maxclusterrank` ([`crate::launch_directives`]).
    pub directives: crate::launch_directives::LaunchDirectives,
    /// Whether a module-scope `.extern .shared` array (dynamic shared memory, sized at launch)
    /// precedes it.
    pub dynamic_shared: bool,
}

/// A read PTX module.
#[derive(Clone, Debug, PartialEq)]
pub struct Module {
    /// `.version`, as written.
    pub version: Option<String>,
    /// `.target`, as written.
    pub target: Option<String>,
    /// The kernels.
    pub kernels: Vec<Kernel>,
    /// Module-scope `.global` variables.
    pub globals: Vec<GlobalVar>,
}

impl Module {
    /// Reads and decodes a whole module. Every instruction is decoded here, once.
    ///
    /// # Errors
    /// [`RunError::Unsupported`] for the first statement the run does not model, and
    /// [`RunError::Invalid`] for one that breaks a PTX rule (an undeclared register, a label
    /// never defined).
    pub fn read(src: &str) -> Result<Module, RunError> {
        let text = strip_comments(src);
        let mut b = Builder::default();
        for (line, stmt) in statements(&text) {
            b.statement(line, &stmt)?;
        }
        if let Some(k) = b.kernel {
            return Err(invalid(k.line, &k.name, "kernel body never closed"));
        }
        for k in &mut b.kernels {
            function::link(&mut k.ops, &b.funcs)?;
            k.call_bytes = b.call_top;
            if !b.funcs.is_empty() {
                k.registers = b.reg_top;
            }
        }
        Ok(Module {
            version: b.version,
            target: b.target,
            kernels: b.kernels,
            globals: b.globals,
        })
    }

    /// The kernel of this name.
    ///
    /// # Errors
    /// [`RunError::NoKernel`] naming the kernels there are.
    pub fn kernel(&self, name: &str) -> Result<&Kernel, RunError> {
        self.kernels
            .iter()
            .find(|k| k.name == name)
            .ok_or_else(|| RunError::NoKernel {
                name: name.to_string(),
                available: self.kernels.iter().map(|k| k.name.clone()).collect(),
            })
    }
}

/// The labels of one `{ }` block and its branches not yet resolved: (op index, label, line).
#[derive(Debug, Default)]
struct Block {
    labels: HashMap<String, usize>,
    fixups: Vec<(usize, String, u32)>,
}

/// A kernel being read.
#[derive(Debug, Default)]
struct KernelDraft {
    name: String,
    line: u32,
    params: Vec<Param>,
    param_bytes: u32,
    /// Register scopes, innermost last: name to slot.
    scopes: Vec<HashMap<String, u32>>,
    registers: u32,
    ops: Vec<Op>,
    /// Label scopes, innermost last (PTX ISA 4.4: a label is visible in the block that declares
    /// it and the blocks inside): the labels of each and its branches still to resolve.
    blocks: Vec<Block>,
    shared: HashMap<String, u64>,
    shared_top: u32,
    /// Brace depth inside the body (1 = the body itself).
    depth: u32,
    /// `.reqnctapercluster`.
    cluster: Option<[u32; 3]>,
    /// `.explicitcluster` or `.reqnctapercluster`.
    explicit_cluster: bool,
    /// `.reqntid`, `.maxntid`, `.maxclusterrank`.
    directives: crate::launch_directives::LaunchDirectives,
    /// Kernel-scope `.local` variables: name to offset in the thread's local memory; and the
    /// `.param` variables of calls: name to their `.param`-space address.
    local: HashMap<String, u64>,
    local_top: u32,
    /// A device function's signature (`None` for a kernel).
    func: Option<Signature>,
    /// The `.param` variables the body declares for its calls.
    call_vars: HashMap<String, CallVar>,
    /// The first register slot and call-area offset of the body.
    starts: (u32, u32),
    /// The end of the call area so far.
    call_top: u32,
    /// The label just read, when no instruction has followed it yet (it names a
    /// `.branchtargets` list that follows).
    last_label: Option<String>,
    /// `.branchtargets` lists: the label naming each, and its labels (crate `brx`).
    tables: HashMap<String, Vec<String>>,
    /// `brx.idx` instructions whose list is declared further down: (op index, list, line).
    brx_pending: Vec<(usize, String, u32)>,
    /// Where the module's `.extern .shared` variables were placed for this kernel (after its
    /// static shared memory), once its first instruction was read.
    dynamic_at: Option<u32>,
}

#[derive(Debug, Default)]
struct Builder {
    version: Option<String>,
    target: Option<String>,
    kernels: Vec<Kernel>,
    globals: Vec<GlobalVar>,
    global_names: HashMap<String, u64>,
    global_top: u64,
    /// Module-scope shared variables: name to offset.
    shared: HashMap<String, u64>,
    shared_top: u32,
    /// A module-scope `.extern .shared` array was declared.
    dynamic_shared: bool,
    /// Module-scope `.extern .shared` variables (dynamic shared memory): name and alignment.
    externs: Vec<(String, u32)>,
    /// A header read, waiting for its `{`.
    pending: Option<KernelDraft>,
    /// Device functions read.
    funcs: Vec<Function>,
    /// Register slots used so far (module-wide, so that functions have slots of their own).
    reg_top: u32,
    /// The end of the threads' call area so far.
    call_top: u32,
    kernel: Option<KernelDraft>,
}

impl Builder {
    fn statement(&mut self, line: u32, stmt: &Stmt<'_>) -> Result<(), RunError> {
        if let Some(k) = self.kernel.as_mut() {
            return match stmt {
                Stmt::Open => {
                    k.depth += 1;
                    k.scopes.push(HashMap::new());
                    k.blocks.push(Block::default());
                    Ok(())
                }
                Stmt::Close => {
                    k.depth -= 1;
                    k.scopes.pop();
                    close_block(k)?;
                    if k.depth == 0 {
                        self.finish_kernel()?;
                    }
                    Ok(())
                }
                Stmt::Label(name) => {
                    let at = k.ops.len();
                    let block = k
                        .blocks
                        .last_mut()
                        .ok_or_else(|| invalid(line, name, "a label outside a block"))?;
                    if block.labels.insert((*name).to_string(), at).is_some() {
                        return Err(invalid(
                            line,
                            name,
                            "a label defined twice in one block (PTX ISA 4.4)",
                        ));
                    }
                    k.last_label = Some((*name).to_string());
                    Ok(())
                }
                Stmt::Directive(text) => body_directive(k, line, text),
                Stmt::Instruction(text) => self.instruction(line, text),
            };
        }
        match stmt {
            Stmt::Open => match self.pending.take() {
                Some(mut k) => {
                    k.depth = 1;
                    k.scopes.push(HashMap::new());
                    k.blocks.push(Block::default());
                    k.shared_top = self.shared_top;
                    k.registers = self.reg_top;
                    k.starts.0 = self.reg_top;
                    if k.func.is_none() {
                        k.starts.1 = self.call_top;
                        k.call_top = self.call_top;
                    }
                    self.kernel = Some(k);
                    Ok(())
                }
                None => Err(unsupported(line, "{", "a block outside a function")),
            },
            Stmt::Close => Err(invalid(line, "}", "a `}` without its `{`")),
            Stmt::Label(l) => Err(invalid(line, l, "a label outside a function")),
            Stmt::Instruction(t) => Err(invalid(line, t, "an instruction outside a function")),
            Stmt::Directive(text) => self.module_directive(line, text),
        }
    }

    fn module_directive(&mut self, line: u32, text: &str) -> Result<(), RunError> {
        let words: Vec<&str> = text.split_ascii_whitespace().collect();
        match words.first().copied().unwrap_or("") {
            ".version" => self.version = words.get(1).map(|s| (*s).to_string()),
            ".target" => self.target = Some(words[1..].join(" ")),
            ".address_size" => {
                if words.get(1) != Some(&"64") {
                    return Err(unsupported(line, text, "only .address_size 64 is modelled"));
                }
            }
            ".loc" | ".file" | ".section" | ".pragma" => {}
            _ if words.contains(&".entry") => self.pending = Some(header(line, text)?),
            _ if words.contains(&".func") => self.pending = Some(self.func_header(line, text)?),
            _ if words.contains(&".shared") => {
                let (name, size, align) = variable(line, text)?;
                self.dynamic_shared |= words.contains(&".extern");
                if words.contains(&".extern") {
                    self.externs.push((name.clone(), align));
                }
                let off = align_up(self.shared_top, align);
                self.shared.insert(name, u64::from(off));
                self.shared_top = off + size;
            }
            _ if words.contains(&".global") => self.global_variable(line, text)?,
            _ => return Err(unsupported(line, text, "directive not modelled")),
        }
        Ok(())
    }

    fn global_variable(&mut self, line: u32, text: &str) -> Result<(), RunError> {
        let (decl, init) = match text.split_once('=') {
            Some((d, i)) => (d, Some(i)),
            None => (text, None),
        };
        let (name, size, align) = variable(line, decl)?;
        let ty = decl
            .split_ascii_whitespace()
            .filter_map(|w| w.strip_prefix('.'))
            .find_map(Ty::parse)
            .ok_or_else(|| invalid(line, decl, "a variable needs a type"))?;
        let mut bytes = vec![0u8; size as usize];
        if let Some(init) = init {
            let elem = ty.bytes() as usize;
            let values = init.trim().trim_start_matches('{').trim_end_matches('}');
            for (i, v) in values.split(',').map(str::trim).enumerate() {
                let value = parse_int(v)
                    .ok_or_else(|| unsupported(line, v, "only integer initialisers are read"))?;
                let at = i * elem;
                let slot = bytes
                    .get_mut(at..at + elem)
                    .ok_or_else(|| invalid(line, init, "more initialisers than elements"))?;
                slot.copy_from_slice(&value.to_le_bytes()[..elem]);
            }
        }
        let address = align_up64(GLOBAL_VARIABLES_BASE + self.global_top, u64::from(align));
        self.global_top = address - GLOBAL_VARIABLES_BASE + u64::from(size);
        self.global_names.insert(name.clone(), address);
        self.globals.push(GlobalVar {
            name,
            address,
            bytes,
        });
        Ok(())
    }

    /// A `.func` header: its formal parameters and return values placed in the call area.
    fn func_header(&mut self, line: u32, text: &str) -> Result<KernelDraft, RunError> {
        let (name, rets, params) = function::header(line, text)?;
        let mut k = KernelDraft {
            name: name.clone(),
            line,
            ..KernelDraft::default()
        };
        let start = self.call_top;
        let mut sig = Signature {
            name,
            ..Signature::default()
        };
        for (decls, is_ret) in [(rets, true), (params, false)] {
            for decl in decls {
                let mut p = param(line, &decl, self.call_top)?;
                self.call_top = p.offset + p.size;
                let var = CallVar {
                    name: p.name.clone(),
                    offset: p.offset,
                    size: p.size,
                };
                if is_ret {
                    sig.rets.push(var);
                } else {
                    sig.params.push(var);
                }
                p.offset += CALL_BASE;
                k.params.push(p);
            }
        }
        k.func = Some(sig);
        k.starts.1 = start;
        k.call_top = self.call_top;
        Ok(k)
    }

    fn instruction(&mut self, line: u32, text: &str) -> Result<(), RunError> {
        let Some(k) = self.kernel.as_mut() else {
            return Err(invalid(line, text, "an instruction outside a function"));
        };
        place_dynamic(k, &self.externs);
        if text.starts_with("call") {
            let vars = &k.call_vars;
            let call = function::parse_call(line, text, &|n| vars.get(n).cloned())?;
            k.ops.push(Op {
                line,
                guard: None,
                kind: OpKind::Call(Box::new(call)),
            });
            return Ok(());
        }
        // The tensor operand of a bulk tensor copy, `[map, {c0, c1}]`, is read as `[map], {c0, c1}`
        // (the core's reader takes addresses of one register and an offset).
        let owned;
        let text = if text.contains("cp.async.bulk.tensor") {
            owned = text.replacen(", {", "], {", 1).replacen("}]", "}", 1);
            owned.as_str()
        } else {
            text
        };
        let ins = tcgen05::ptx_reader::read_instruction(text)
            .map_err(|_| invalid(line, text, "not a PTX instruction"))?;
        let names = Names {
            scopes: &k.scopes,
            params: &k.params,
            shared: &k.shared,
            local: &k.local,
            module_shared: &self.shared,
            globals: &self.global_names,
        };
        let (mut op, label) = decode(&ins, line, &names)?;
        k.last_label = None;
        let (label, table) = match (&op.kind, label) {
            (OpKind::BrxIdx { .. }, Some(table)) => {
                k.brx_pending.push((k.ops.len(), table.clone(), line));
                (None, k.tables.get(&table).map(|l| (table, l.clone())))
            }
            (_, label) => (label, None),
        };
        if k.func.is_some() && op.kind == OpKind::Exit && ins.base() == "ret" {
            op.kind = OpKind::Ret;
        }
        if let Some(label) = label {
            let at = k.ops.len();
            if let Some(b) = k.blocks.last_mut() {
                b.fixups.push((at, label, line));
            }
        }
        k.ops.push(op);
        if let Some((name, list)) = table {
            bind_branch_table(k, &name, &list);
        }
        Ok(())
    }

    fn finish_kernel(&mut self) -> Result<(), RunError> {
        let Some(mut k) = self.kernel.take() else {
            return Ok(());
        };
        if let Some((_, table, line)) = k.brx_pending.first() {
            return Err(invalid(
                *line,
                table,
                "brx.idx of a name that is no .branchtargets list",
            ));
        }
        // Falling off the end of the body returns (PTX ISA 9.7.12.11: an implicit ret).
        k.ops.push(Op {
            line: 0,
            guard: None,
            kind: if k.func.is_some() {
                OpKind::Ret
            } else {
                OpKind::Exit
            },
        });
        self.reg_top = k.registers;
        self.call_top = self.call_top.max(k.call_top);
        if let Some(sig) = k.func.take() {
            self.funcs.push(Function {
                sig,
                ops: k.ops,
                regs: (k.starts.0, k.registers),
                area: (k.starts.1, k.call_top),
            });
            return Ok(());
        }
        self.kernels.push(Kernel {
            name: k.name,
            line: k.line,
            params: k.params,
            param_bytes: k.param_bytes,
            registers: k.registers,
            ops: k.ops,
            static_shared: k.shared_top,
            cluster: k.cluster,
            explicit_cluster: k.explicit_cluster,
            local_bytes: k.local_top,
            call_bytes: 0,
            target: crate::tcgen05::target::emulated(self.target.as_deref()),
            directives: k.directives,
            dynamic_shared: self.dynamic_shared,
        });
        Ok(())
    }
}

/// Closes a `{ }` block: its branches to its own labels are resolved; the others go to the
/// enclosing block, or are an error when the body itself closes.
fn close_block(k: &mut KernelDraft) -> Result<(), RunError> {
    let Some(block) = k.blocks.pop() else {
        return Ok(());
    };
    for (at, label, line) in block.fixups {
        if let Some(&target) = block.labels.get(&label) {
            if let Some(Op {
                kind: OpKind::Bra { target: t },
                ..
            }) = k.ops.get_mut(at)
            {
                *t = target;
            } else if let Some(Op {
                kind: OpKind::BrxIdx {
                    labels, targets, ..
                },
                ..
            }) = k.ops.get_mut(at)
            {
                for (l, t) in labels.iter().zip(targets.iter_mut()) {
                    if *l == label {
                        *t = target;
                    }
                }
            }
        } else if let Some(outer) = k.blocks.last_mut() {
            outer.fixups.push((at, label, line));
        } else {
            return Err(invalid(line, &label, "branch to a label never defined"));
        }
    }
    Ok(())
}

/// Gives the `brx.idx` instructions read so far that name the list `name` its labels, to be
/// resolved like branches (crate `brx`).
fn bind_branch_table(k: &mut KernelDraft, name: &str, list: &[String]) {
    let (mine, rest): (Vec<_>, Vec<_>) = std::mem::take(&mut k.brx_pending)
        .into_iter()
        .partition(|(_, t, _)| t == name);
    k.brx_pending = rest;
    for (at, _, line) in mine {
        if let Some(Op {
            kind: OpKind::BrxIdx {
                labels, targets, ..
            },
            ..
        }) = k.ops.get_mut(at)
        {
            labels.extend(list.iter().cloned());
            *targets = vec![usize::MAX; list.len()];
        }
        if let Some(b) = k.blocks.last_mut() {
            for l in list {
                b.fixups.push((at, l.clone(), line));
            }
        }
    }
}

/// A directive inside a kernel body: `.reg`, `.shared`, or one skipped knowingly.
fn body_directive(k: &mut KernelDraft, line: u32, text: &str) -> Result<(), RunError> {
    let words: Vec<&str> = text.split_ascii_whitespace().collect();
    match words.first().copied().unwrap_or("") {
        ".reg" => declare_registers(k, line, text),
        ".loc" | ".file" | ".pragma" => Ok(()),
        ".branchtargets" => {
            let labels = crate::brx::branch_targets(line, text)?;
            let name = k
                .last_label
                .clone()
                .ok_or_else(|| invalid(line, text, "a .branchtargets list without its label"))?;
            bind_branch_table(k, &name, &labels);
            k.tables.insert(name, labels);
            Ok(())
        }
        ".shared" => {
            let (name, size, align) = variable(line, text)?;
            if k.dynamic_at.is_some() {
                return Err(unsupported(
                    line,
                    text,
                    "a .shared variable declared after instructions that address the .extern .shared (dynamic) memory placed after the kernel's static shared memory",
                ));
            }
            let off = align_up(k.shared_top, align);
            k.shared.insert(name, u64::from(off));
            k.shared_top = off + size;
            Ok(())
        }
        ".param" => {
            let (name, size, align) = variable(line, text)?;
            let off = align_up(k.call_top, align);
            k.call_top = off + size;
            k.local.insert(name.clone(), u64::from(CALL_BASE + off));
            k.call_vars.insert(
                name.clone(),
                CallVar {
                    name,
                    offset: off,
                    size,
                },
            );
            Ok(())
        }
        ".local" => {
            let (name, size, align) = variable(line, text)?;
            let off = align_up(k.local_top, align);
            k.local.insert(name, u64::from(off));
            k.local_top = off + size;
            Ok(())
        }
        _ => Err(unsupported(line, text, "directive not modelled in a body")),
    }
}

/// `.reg .b32 %r<16>;` or `.reg .b32 a, b;`: fresh slots in the innermost scope.
fn declare_registers(k: &mut KernelDraft, line: u32, text: &str) -> Result<(), RunError> {
    let rest: Vec<&str> = text
        .split(|c: char| c.is_ascii_whitespace() || c == ',')
        .filter(|w| !w.is_empty() && !w.starts_with('.'))
        .collect();
    if rest.is_empty() {
        return Err(invalid(line, text, "a .reg declaration names no register"));
    }
    for name in rest {
        if let Some((base, count)) = name.split_once('<') {
            let n: u32 = count
                .trim_end_matches('>')
                .parse()
                .map_err(|_| invalid(line, name, "a register range needs a count"))?;
            for i in 0..n {
                new_register(k, format!("{base}{i}"));
            }
        } else {
            new_register(k, name.to_string());
        }
    }
    Ok(())
}

fn new_register(k: &mut KernelDraft, name: String) {
    let slot = k.registers;
    k.registers += 1;
    if let Some(scope) = k.scopes.last_mut() {
        scope.insert(name, slot);
    }
}

/// Reads a kernel header: its name and `.param` list, laid out with each parameter's alignment.
fn header(line: u32, text: &str) -> Result<KernelDraft, RunError> {
    let after = text
        .split_once(".entry")
        .map(|(_, r)| r.trim_start())
        .unwrap_or("");
    let name_end = after
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
        .unwrap_or(after.len());
    let name = &after[..name_end];
    if name.is_empty() {
        return Err(invalid(line, text, ".entry without a name"));
    }
    let (cluster, explicit_cluster) = crate::cluster::header(line, &after[name_end..])?;
    let directives = crate::launch_directives::header(line, &after[name_end..])?;
    let mut k = KernelDraft {
        name: name.to_string(),
        line,
        cluster,
        explicit_cluster,
        directives,
        ..KernelDraft::default()
    };
    let list = after[name_end..]
        .trim_start()
        .strip_prefix('(')
        .and_then(|r| r.split_once(')'))
        .map_or("", |(l, _)| l);
    for decl in list.split(',').map(str::trim).filter(|d| !d.is_empty()) {
        let p = param(line, decl, k.param_bytes)?;
        k.param_bytes = p.offset + p.size;
        k.params.push(p);
    }
    Ok(k)
}

/// One `.param` declaration: `.param .u64 .ptr .global .align 1 name` or
/// `.param .align 8 .b8 name[16]`.
fn param(line: u32, decl: &str, at: u32) -> Result<Param, RunError> {
    let words: Vec<&str> = decl.split_ascii_whitespace().collect();
    if words.first() != Some(&".param") {
        return Err(invalid(
            line,
            decl,
            "a kernel parameter is declared with .param",
        ));
    }
    let mut ty = None;
    let mut align = None;
    let mut pointer = false;
    let mut name = None;
    let mut it = words[1..].iter();
    while let Some(w) = it.next() {
        match *w {
            ".align" => {
                align = it.next().and_then(|a| a.parse::<u32>().ok());
                if !align.is_some_and(u32::is_power_of_two) {
                    return Err(invalid(line, decl, ".align needs a power of two"));
                }
            }
            ".ptr" => pointer = true,
            ".global" | ".shared" | ".const" | ".local" => {}
            w if w.starts_with('.') => {
                ty = Some(
                    Ty::parse(&w[1..])
                        .ok_or_else(|| unsupported(line, w, "parameter type not modelled"))?,
                );
            }
            w => name = Some(w),
        }
    }
    let ty = ty.ok_or_else(|| invalid(line, decl, "a parameter needs a type"))?;
    let name = name.ok_or_else(|| invalid(line, decl, "a parameter needs a name"))?;
    let (name, count) = array(line, name)?;
    let size = ty.bytes() * count;
    // A pointer's .align states the pointee's alignment; the parameter itself is aligned to its
    // size (PTX ISA 5.1.6.1). An array parameter takes its .align.
    let align = if pointer || count == 1 {
        ty.bytes()
    } else {
        align.unwrap_or(ty.bytes())
    };
    Ok(Param {
        name: name.to_string(),
        offset: align_up(at, align),
        size,
        align,
        ty,
        pointer,
    })
}

/// `name[N]` to (name, N); `name` to (name, 1).
fn array(line: u32, name: &str) -> Result<(&str, u32), RunError> {
    match name.split_once('[') {
        Some((n, count)) => {
            let count = count.trim_end_matches(']');
            if count.is_empty() {
                return Ok((n, 0));
            }
            let c = count
                .parse()
                .map_err(|_| invalid(line, name, "an array size must be a number"))?;
            Ok((n, c))
        }
        None => Ok((name, 1)),
    }
}

/// At a kernel's first instruction: the module's `.extern .shared` variables start after the
/// kernel's static shared memory (CUDA's dynamic shared memory follows the static; PTX ISA
/// 5.1.6: an external `.shared` array's size is the launch's), each at its alignment; the
/// static size then counts the padding, so the dynamic bytes of the launch start there.
fn place_dynamic(k: &mut KernelDraft, externs: &[(String, u32)]) {
    if k.dynamic_at.is_some() || externs.is_empty() || k.func.is_some() {
        return;
    }
    let mut at = k.shared_top;
    for (name, align) in externs {
        at = align_up(at, *align);
        k.shared.insert(name.clone(), u64::from(at));
    }
    k.shared_top = at;
    k.dynamic_at = Some(at);
}

/// A variable declaration (`.shared .align 16 .b8 smem[1024]`, `.extern .shared ... x[]`):
/// (name, size in bytes, alignment).
fn variable(line: u32, text: &str) -> Result<(String, u32, u32), RunError> {
    let mut align = 1;
    let mut ty = None;
    let mut name = None;
    let mut it = text.split_ascii_whitespace();
    while let Some(w) = it.next() {
        match w {
            ".align" => {
                align = it
                    .next()
                    .and_then(|a| a.parse::<u32>().ok())
                    .filter(|a| a.is_power_of_two())
                    .ok_or_else(|| invalid(line, text, ".align needs a power of two"))?;
            }
            ".extern" | ".shared" | ".global" | ".visible" | ".weak" | ".local" | ".param" => {}
            ".const" => {
                return Err(unsupported(
                    line,
                    text,
                    "the .const state space is not modelled yet",
                ))
            }
            w if w.starts_with('.') => {
                ty = Some(
                    Ty::parse(&w[1..])
                        .ok_or_else(|| unsupported(line, w, "variable type not modelled"))?,
                );
            }
            w => name = Some(w),
        }
    }
    let ty = ty.ok_or_else(|| invalid(line, text, "a variable needs a type"))?;
    let name = name.ok_or_else(|| invalid(line, text, "a variable needs a name"))?;
    let (name, count) = array(line, name.trim_end_matches(';'))?;
    Ok((name.to_string(), ty.bytes() * count, align.max(ty.bytes())))
}

fn parse_int(v: &str) -> Option<u64> {
    let (neg, v) = match v.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, v),
    };
    let v = v.trim_end_matches('U');
    let x = if let Some(h) = v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()?
    } else {
        v.parse().ok()?
    };
    Some(if neg { x.wrapping_neg() } else { x })
}

/// `x` rounded up to a multiple of the power of two `a`.
pub(crate) fn align_up(x: u32, a: u32) -> u32 {
    x.div_ceil(a.max(1)) * a.max(1)
}

fn align_up64(x: u64, a: u64) -> u64 {
    x.div_ceil(a.max(1)) * a.max(1)
}
