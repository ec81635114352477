% printf widths, precisions and flags (- + 0), upper-case conversions, octal, and %s of numbers.
% ==
% stdout {
% [ 3.14] [ab    ] [+5] [00042] [7]
% [1.234500E+03] [1.2345E-05] [FF] [10]
% 1e+20 1.23457e+08  1.235e+04|
% 1.5 and [1,2]
% }
printf("[%5.2f] [%-6s] [%+d] [%05d] [%i]\n", 3.14159, "ab", 5, 42, 7)
printf("[%E] [%G] [%X] [%o]\n", 1234.5, 0.000012345, 255, 8)
printf("%g %g %10.3e|\n", 1e20, 123456789, 12345.6789)
printf("%s and %s\n", 1.5, [1, 2])
