//! Stub until the reader lands.

use super::ImportError;
use models::topology::parts::Parts;

/// Stub.
pub fn read(_text: &str, file: &str) -> Result<Parts, ImportError> {
    Err(ImportError::Usage(format!("{file}: not yet read")))
}
