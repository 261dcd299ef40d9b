//! Built-in machines (stub until the machines land).

/// The machines by name, for messages.
pub const NAMES: &str = "dgx1, dgx-a100, dgx-h100, mi300x, npu-torus:AxB; NAME:K for K servers";

/// True where `spec` names a built-in machine.
pub fn is_machine(spec: &str) -> bool {
    let name = spec.split(':').next().unwrap_or("");
    ["dgx1", "dgx-a100", "dgx-h100", "mi300x", "npu-torus"].contains(&name)
}

/// A built-in machine.
pub struct Builtin;

impl Builtin {
    /// The machine `spec` names.
    pub fn parse(spec: &str) -> Result<Builtin, String> {
        Err(format!("{spec}: not yet built"))
    }
}

impl Builtin {
    /// Stub.
    pub fn parts(&self) -> super::parts::Parts {
        super::parts::Parts::default()
    }
}
