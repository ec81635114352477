% Imported by several_mains.q: a library with its own `main` (its self-test).
function y = triple(x)
  y = 3 * x
end
function [] = main()
  print "library main"
end
print "library loaded"
