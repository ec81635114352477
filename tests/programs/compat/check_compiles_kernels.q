% `check` compiles the kernels whose declared parameter types fix a signature, so a
% kernel with `match` or `:` is compiled before the program runs; a kernel with an
% untyped parameter is compiled at its launch, for the types it gets there.
% ==
% stdout {
% [2,3,0,0]
% [3,6]
% }
function [] = __kernel__ pick(y : vec, pos : int)
  match pos with
  | 0 -> y[pos] = 2
  | 1 -> y[pos] = 3
  | _ -> y[pos] = 0
  end
end
function [] = __kernel__ scale(y, f, pos : int)
  y[pos] = y[pos] * f
end
y = zeros(4)
parallel_do(4, y, pick)
print y
z = [1.0, 2.0]
parallel_do(2, z, 3, scale)
print z
