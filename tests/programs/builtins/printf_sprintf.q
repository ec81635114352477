% printf and sprintf conversions %d %f %.3f %e %g %s %x and escapes.
% ==
% stdout {
% n=42 pi~3.142
% 2.500000|1.234568e+04
% 0.0001 1e-05 2.5
% hex ff; str abc
% a	b
% 7%
% [  5] [-3   ]
% }
printf("n=%d pi~%.3f\n", 42, 3.14159)
printf("%f|%e\n", 2.5, 12345.678)
s = sprintf("%g %g %g", 0.0001, 0.00001, 2.5)
print s
printf("hex %x; str %s\n", 255, "abc")
printf("a\tb\n")
printf("%d%%\n", 7)
printf("[%3d] [%-5d]\n", 5, -3)
