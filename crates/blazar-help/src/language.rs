//! The documentation of the functions and statements that are part of the language
//! rather than builtins of the runtime: `print`, and the intrinsics that need the
//! interpreter (`type`, `error`, `assert`, `isdefined`) or launch kernels
//! (`parallel_do`, `serial_do`, and, inside kernels, `shared`, `syncthreads`, ...).

use blazar_ops::Doc;

/// (name, documentation) of each language function, in reference order.
pub const DOCS: &[(&str, Doc)] = &[
    (
        "print",
        Doc::new(
            "print a, b, ... · print(a, b, ...)",
            "A statement: prints its arguments joined with nothing in between, then ends the line. Numbers print in the shortest form that reads back to the same value; arrays print in brackets, a matrix one row per line; a large array is summarised (see `printfull`).",
            "print \"x = \", 3, \", y = \", [1, 2]",
            "x = 3, y = [1,2]",
        ),
    ),
    (
        "type",
        Doc::new(
            "type(x) · type(x, t)",
            "The type of value x as a string (`int`, `scalar`, `vec`, `mat[int]`, ...); with a second argument (a type or its name), 1 if x conforms to that type, else 0.",
            "print type(3), \" \", type([1.5, 2]), \" \", type(3, \"int\"), \" \", type([1.5, 2], \"mat\")",
            "int vec 1 0",
        ),
    ),
    (
        "error",
        Doc::new(
            "error(part1, part2, ...)",
            "Stops the program with an error located at the call: the parts are formatted as `print` does and joined into the message. The caller's line is reported too.",
            "function y = safe_sqrt(x)\n    if x < 0\n        error(\"safe_sqrt: negative input \", x)\n    end\n    y = sqrt(x)\nend\nprint safe_sqrt(16)",
            "4",
        ),
    ),
    (
        "assert",
        Doc::new(
            "assert(cond) · assert(cond, message)",
            "Stops the program with `assertion failed` (and the message) when cond is false (zero); does nothing otherwise.",
            "x = [1, 2, 3]\nassert(numel(x) == 3, \"three elements expected\")\nprint \"checked\"",
            "checked",
        ),
    ),
    (
        "isdefined",
        Doc::new(
            "isdefined(name)",
            "1 if the variable has been assigned at this point of the function, else 0.",
            "print isdefined(total)\ntotal = 0\nprint isdefined(total)",
            "0\n1",
        ),
    ),
    (
        "parallel_do",
        Doc::new(
            "parallel_do(dims, args..., kernel) · parallel_do([dims, block], args..., kernel)",
            "Runs `__kernel__` function `kernel` once for every position of the index space dims (an int or a vector of extents), in parallel on the device (every CPU core, or the GPU). The kernel receives the args, then its position (`pos : int` or `ivec2`, ...); with a block shape it can also take `blkpos`, `blkdim` and use shared memory. Writes to array arguments are seen by the caller.",
            "function [] = __kernel__ double_it(x : vec, y : vec, pos : int)\n    y[pos] = 2 * x[pos]\nend\nx = [1, 2, 3]\ny = zeros(3)\nparallel_do(numel(x), x, y, double_it)\nprint y",
            "[2,4,6]",
        ),
    ),
    (
        "serial_do",
        Doc::new(
            "serial_do(dims, args..., kernel)",
            "Runs a kernel like `parallel_do`, but one position after the other, in order, on the host: for debugging a kernel or comparing with the parallel run.",
            "function [] = __kernel__ fill(y : vec, pos : int)\n    y[pos] = pos * pos\nend\ny = zeros(4)\nserial_do(4, y, fill)\nprint y",
            "[0,1,4,9]",
        ),
    ),
    (
        "shared",
        Doc::new(
            "shared(n1, n2, ...) · shared_zeros(n1, ...)",
            "Inside a kernel launched with a block shape: an array in the block's shared memory, one per block, visible to all its threads (`shared_zeros` starts it at zero). Threads meet at `syncthreads` before reading what others wrote.",
            "function [] = __kernel__ block_sums(x : vec, s : vec, pos : int, blkpos : int, blkdim : int)\n    tile = shared(blkdim)\n    tile[blkpos] = x[pos]\n    syncthreads\n    if blkpos == 0\n        acc = 0.0\n        for k = 0..blkdim - 1\n            acc += tile[k]\n        end\n        s[int(pos / blkdim)] = acc\n    end\nend\ns = zeros(2)\nparallel_do([[8], [4]], 1..8, s, block_sums)\nprint s",
            "[10,26]",
        ),
    ),
    (
        "shared_zeros",
        Doc::new(
            "shared_zeros(n1, n2, ...)",
            "Inside a kernel launched with a block shape: a shared-memory array of the block (as `shared`) whose elements start at zero.",
            "function [] = __kernel__ firsts(x : vec, s : vec, pos : int, blkpos : int, blkdim : int)\n    t = shared_zeros(blkdim)\n    if blkpos < 2\n        t[blkpos] = x[pos]\n    end\n    syncthreads\n    if blkpos == 0\n        s[int(pos / blkdim)] = t[0] + t[1] + t[2] + t[3]\n    end\nend\ns = zeros(2)\nparallel_do([[8], [4]], 1..8, s, firsts)\nprint s",
            "[3,11]",
        ),
    ),
    (
        "syncthreads",
        Doc::new(
            "syncthreads",
            "Inside a kernel launched with a block shape: a barrier; every thread of the block waits here until all have arrived, so writes to shared memory before it are seen after it.",
            "function [] = __kernel__ reverse(x : vec, y : vec, pos : int, blkpos : int, blkdim : int)\n    t = shared(blkdim)\n    t[blkpos] = x[pos]\n    syncthreads\n    y[pos] = t[blkdim - 1 - blkpos]\nend\ny = zeros(4)\nparallel_do([[4], [4]], [1, 2, 3, 4], y, reverse)\nprint y",
            "[4,3,2,1]",
        ),
    ),
    (
        "max_block_size",
        Doc::new(
            "max_block_size(kernel, n)",
            "The largest block of threads the device can run `kernel` with, for n positions: a safe block shape for `parallel_do([dims, block], ...)`.",
            "function [] = __kernel__ k(y : vec, pos : int)\n    y[pos] = 1\nend\nprint max_block_size(k, 64) >= 1",
            "1",
        ),
    ),
    (
        "opt_block_size",
        Doc::new(
            "opt_block_size(kernel, dims)",
            "A block shape that runs `kernel` well over the index space dims on the device (as a vector of extents).",
            "function [] = __kernel__ k(y : mat, pos : ivec2)\n    y[pos] = 1\nend\nb = opt_block_size(k, [64, 64])\nprint numel(b)",
            "2",
        ),
    ),
];
