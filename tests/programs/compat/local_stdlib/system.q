% A program's own system.q: imported instead of Blazar's bundled module of that name.
function y = local_helper(x)
  y = x + 100
end
