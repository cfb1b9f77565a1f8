//! Array files the commands read: a raw file of bytes, or a little-endian C-order `.npy`
//! (NumPy's format: a header, then the data), split into its header and data.

/// A file's bytes: the header (empty for a raw file) and the data, with the `.npy` shape, item
/// size and dtype (`[len]`, 1 and `None` for a raw file).
pub struct ArrayFile {
    /// The bytes before the data (`.npy` header), empty for a raw file.
    pub header: Vec<u8>,
    /// The array's data.
    pub data: Vec<u8>,
    /// The `.npy` shape; a raw file is one dimension of its length.
    pub shape: Vec<u64>,
    /// Bytes per element (1 for a raw file).
    pub item: usize,
    /// NumPy's dtype string (`<f4`), `None` for a raw file.
    pub descr: Option<String>,
}

/// Reads `path`; a `.npy` must be little-endian, C-order, of a fixed item size, with as much data
/// as its shape says. Errors name the path and the problem.
pub fn read(path: &str) -> Result<ArrayFile, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    if !bytes.starts_with(b"\x93NUMPY") {
        return Ok(ArrayFile {
            header: Vec::new(),
            shape: vec![bytes.len() as u64],
            data: bytes,
            item: 1,
            descr: None,
        });
    }
    let npy =
        npyz::NpyFile::new(&bytes[..]).map_err(|e| format!("{path}: not a .npy file: {e}"))?;
    let dtype = npy.dtype();
    let descr = dtype.descr();
    if descr.starts_with('>') || npy.order() != npyz::Order::C {
        return Err(format!(
            "{path}: dtype {descr} in {:?} order: only little-endian C-order arrays are read",
            npy.order()
        ));
    }
    let item = dtype
        .num_bytes()
        .ok_or_else(|| format!("{path}: dtype {descr} has no fixed size"))?;
    let shape = npy.shape().to_vec();
    let len = usize::try_from(npy.len()).map_err(|_| format!("{path}: too large"))?;
    let total = len
        .checked_mul(item)
        .filter(|&t| t <= bytes.len())
        .ok_or_else(|| format!("{path}: the data is shorter than its shape"))?;
    let split = bytes.len() - total;
    Ok(ArrayFile {
        header: bytes[..split].to_vec(),
        data: bytes[split..].to_vec(),
        shape,
        item,
        descr: Some(descr),
    })
}
