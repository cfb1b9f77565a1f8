#!/usr/bin/env python3
"""Write conformance/vectors/pytorch-to-blocked.jsonl: where PyTorch's documented `to_blocked`
puts each scale factor.

Source: PyTorch's `to_blocked` (torch/testing/_internal/common_quantized.py, the layout
`torch._scaled_mm` reads for MX/NVFP4 scales, issues pytorch/pytorch#152665 and #153254):

    n_row_blocks = ceil(rows / 128); n_col_blocks = ceil(cols / 4)
    padded = zeros(n_row_blocks * 128, n_col_blocks * 4); padded[:rows, :cols] = input
    blocks = padded.view(n_row_blocks, 128, n_col_blocks, 4).permute(0, 2, 1, 3)
    rearranged = blocks.reshape(-1, 4, 32, 4).transpose(1, 2).reshape(-1, 32, 16)
    return rearranged.flatten()

This script carries out those tensor operations literally on a matrix whose entry (r, c) is its own
label r * cols + c + 1 (0 is the padding fill), with a small strided-view model written here (no
torch needed), and records for every (row, column) the index in the flattened result, plus the
indices that hold padding. It runs with the Python standard library only:

    python3 conformance/scales/gen_torch_to_blocked.py > conformance/vectors/pytorch-to-blocked.jsonl
"""
import json
import sys


def ceil_div(a, b):
    return -(-a // b)


def contiguous_strides(shape):
    strides, s = [], 1
    for n in reversed(shape):
        strides.insert(0, s)
        s *= n
    return strides


class View:
    """A strided view over a flat list, as a contiguous torch tensor's views are."""

    def __init__(self, data, shape, strides=None, offset=0):
        self.data, self.shape = data, list(shape)
        self.strides = list(strides) if strides is not None else contiguous_strides(shape)
        self.offset = offset

    def permute(self, *dims):
        return View(self.data, [self.shape[d] for d in dims], [self.strides[d] for d in dims], self.offset)

    def transpose(self, a, b):
        dims = list(range(len(self.shape)))
        dims[a], dims[b] = dims[b], dims[a]
        return self.permute(*dims)

    def indices(self):
        """Every multi-index in row-major order."""
        total = 1
        for n in self.shape:
            total *= n
        for flat in range(total):
            idx, rem = [], flat
            for n in reversed(self.shape):
                idx.insert(0, rem % n)
                rem //= n
            yield idx

    def contiguous(self):
        out = []
        for idx in self.indices():
            out.append(self.data[self.offset + sum(i * s for i, s in zip(idx, self.strides))])
        return View(out, self.shape)

    def reshape(self, *shape):
        shape = list(shape)
        total = len(self.contiguous().data)
        if -1 in shape:
            known = 1
            for n in shape:
                if n != -1:
                    known *= n
            shape[shape.index(-1)] = total // known
        # reshape of a non-contiguous view copies (torch semantics: same element order).
        return View(self.contiguous().data, shape)


def to_blocked(matrix, rows, cols):
    n_row_blocks, n_col_blocks = ceil_div(rows, 128), ceil_div(cols, 4)
    pr, pc = n_row_blocks * 128, n_col_blocks * 4
    padded = [0] * (pr * pc)
    for r in range(rows):
        for c in range(cols):
            padded[r * pc + c] = matrix[r * cols + c]
    blocks = View(padded, [n_row_blocks, 128, n_col_blocks, 4]).permute(0, 2, 1, 3)
    rearranged = blocks.reshape(-1, 4, 32, 4).transpose(1, 2).reshape(-1, 32, 16)
    return rearranged.contiguous().data


SHAPES = [(128, 4), (1, 1), (64, 2), (100, 3), (129, 5), (256, 8), (300, 6), (32, 12), (200, 1)]


def main():
    print(json.dumps({"kind": "header", "source": "pytorch to_blocked (torch/testing/_internal/common_quantized.py)",
                      "generator": "conformance/scales/gen_torch_to_blocked.py"}))
    for rows, cols in SHAPES:
        labels = [r * cols + c + 1 for r in range(rows) for c in range(cols)]
        flat = to_blocked(labels, rows, cols)
        where = [None] * (rows * cols)
        padding = []
        for i, v in enumerate(flat):
            if v == 0:
                padding.append(i)
            else:
                where[v - 1] = i
        assert all(w is not None for w in where)
        print(json.dumps({"kind": "to_blocked", "rows": rows, "k_blocks": cols, "bytes": len(flat),
                          "offsets": where, "padding": padding}, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
