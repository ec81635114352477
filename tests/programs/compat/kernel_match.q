% `match` inside a kernel with scalar patterns, lowered like an if/elseif chain: the
% scrutinee is evaluated once, the first matching arm runs, `_` is the default.
% ==
% stdout {
% [-1,-1,20,31,-1,-1,20,31]
% [0,5,7,0,0,5,7,0]
% }
function [] = __kernel__ k(y : vec, pos : int)
  match mod(pos, 4) with
  | 2 -> y[pos] = 20
  | 3 ->
      y[pos] = 30
      y[pos] += 1
  | _ -> y[pos] = -1
  end
end
function v = __device__ pick(n : int)
  v = 0
  match n with
  | 1 -> v = 5
  | 2 -> v = 7
  end
end
function [] = __kernel__ k2(y : vec, pos : int)
  y[pos] = pick(mod(pos, 4))
end
y = zeros(8)
parallel_do(8, y, k)
print y
z = zeros(8)
parallel_do(8, z, k2)
print z
