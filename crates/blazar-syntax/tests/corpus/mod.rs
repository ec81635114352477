//! Valid Quasar programs shared by the integration tests (written for this project).

pub const PROGRAMS: &[&str] = &[
    // 0: straight-line code, literals and operators
    "a = 5\nb = 5.\nc = 0.5 + .5 * 1e3 - 1.9e-4\nz = 3j + 0i + 2.5i\nm = 1011b\nprint a, b, c\nprint(z)\n",
    // 1: loops, ranges and labels
    "total = 0\nfor i = 0..9\n    total += i\nendfor\nfor j = 10..-2..0\n    total -= j\nend\nouter:\nfor p = 0..3\n    for q = 0..3\n        if p * q > 4\n            break outer\n        end\n    end\nend\nprint total\n",
    // 2: functions with outputs, defaults and types
    "function [s, d] = sumdiff(x, y : int, w : scalar = 0.5)\n    s = x + y * w\n    d = x - y\nendfunction\n[u, v] = sumdiff(3, 4)\nfunction y : mat = twice(x : mat)\n    y = 2 * x\nend\nfunction [] = main()\n    print u, v\nend\n",
    // 3: kernels and device functions
    "function [] = __kernel__ scale(y : cube'unchecked, f : scalar, pos : ivec3)\n    y[pos] = f * y[pos]\nendfunction\nfunction v = __device__ sq(x : scalar)\n    v = x * x\nend\nimg = zeros(4, 4, 3)\nparallel_do(size(img), img, 2.0, scale)\n",
    // 4: lambdas of every shape
    "inc = x -> x + 1\nadd = (x, y) -> x + y\ndbl = (x : int) -> 2 * x\nboth = () -> (a = 1; a + 2)\ndev = __device__ (x : scalar, y : scalar) -> x * y\nparallel_do(10, v, __kernel__ (v : vec, pos : int) -> v[pos] += 1)\nk = __kernel__ (y : cube'unchecked, pos : ivec3) -> _\n    y[pos] = 2 * y[pos]\n",
    // 5: matrices, cells, indexing
    "A = [[1, 2], [3, 4]]\nB = A[0, :]\nC = `1, 2, 3j, zeros(4, 4)'\nD = ` `[1, 2], [1, 2]', `[1, 2, 3], [4, 5, 6]' '\nE = `(x:int->2*x), (x:int->3*x)'\nF = imread(\"f.png\")[:, :, 0]\nG = d[0][pos]\nH = x[9..-1..0]\nI = []\n",
    // 6: conditionals and ternaries
    "x = 3\nif x > 2 && x < 5 || !done\n    y = x > 3 ? 1 : 0\nelseif x == 2\n    y = -x^2\nelse\n    y = 10^-6\nendif\nwhile y < 100\n    y *= 2\nendwhile\nrepeat\n    y -= 1\nuntil y <= 0\n",
    // 7: match
    "mode = \"fast\"\nmatch mode with\n| \"fast\" -> n = 1\n| \"slow\" ->\n    n = 2\n    m = 3\n| _ -> n = 0\nend\n",
    // 8: declarations
    "x : int = 5\nimg : cube\ny : vec'unchecked = zeros(256)\nsh : mat'unchecked'const = ones(3, 3)\nint n = 5\nscalar s = 1.0\nt : vec[int8] = zeros(3)\nq : cube{4} = zeros([2, 2, 2, 2])\n",
    // 9: type definitions
    "type point : class\n    x : scalar\n    y : scalar\nend\ntype node : mutable class\n    value : int\n    next : ??\nend\ntype T : [vec | mat | cube]\ntype f : [(scalar, scalar) -> scalar]\ntype acc : [__device__ (scalar, scalar) -> scalar]\ntype g : [?? -> ??]\n",
    // 10: reductions and macros
    "reduction (x : cube) -> sum(x) = my_sum(x)\nreduction (x : T, a : T, b, c) -> (x[a > b] = c) = (x += (c - x) .* (a > b))\nmacro [] = profile()\n    if $target(\"gpu\")\n        !kernel_transform enable=\"sharedmemcaching\"\n    endif\nendmacro\n",
    // 11: attributes
    "y = zeros(256)\n!parallel for\nfor m = 0..9\n    !kernel_arg name=y; type=\"inout\"; op=\"+=\"; numel=256\n    !kernel_tiling dims=[128,256,1]; mode=\"global\"}\n    !profile\n    y[m] += 1\nend\n#pragma force_parallel\nfor n = 0..3\n    y[n] = n\nend\n{!parallel for}\n",
    // 12: nested functions, shared memory, syncthreads
    "function y = hist(im : cube)\n    function [] = __kernel__ kern(im : cube, y : vec, pos : ivec3, blkpos : ivec3, blkdim : ivec3)\n        sh : mat = shared(256, 4)\n        syncthreads\n        sh[im[pos], 0] += 1\n        syncthreads\n    endfunction\n    y = zeros(256)\n    parallel_do(size(im, 0..2), im, y, kern)\nendfunction\n",
    // 13: multi-assignment, in-place ops, fields, imports, strings
    "import \"lib.q\"\n[s[v], s[w]] = [s[w], s[v]]\n[M, N, P] = blkdim + [2, 0, 0]\no = object()\no.field = 3\na .*= 2\na ./= 2\na .^= 2\na ^= 2\nassert(type(a, '??'))\nprint type(a)\n",
    // 14: continuation lines and comments
    "% a comment\nq = 1 + _ % continued\n    2\nr = f(1,\n      2)\ns = 1 +\n    2\nfunction [] = __kernel__ k(a : mat'unchecked, _\n    b : mat'unchecked, pos : ivec2)\n    b[pos] = a[pos]\nend\n",
    // 15: forms of published programs: typed and named arguments, typed field
    // assignment, modifier-only types, `;` after a lambda argument, `^class`, raw strings
    "r = twice(n : int)\ny = f(img : cube, 1 / s, \"nearest\")\np = point(x := 3, y := 4)\np.gain : scalar = 2.5\nfunction y = g(v : vec'unchecked, step : 'unchecked)\n    y = v[0]\nend\nh.add(() -> (s.v = 7);)\ntype node : mutable class\n    next : ^node\nend\nd = \"C:\\out\\\"\nq = c ? 'a' : 'b'\n",
];
