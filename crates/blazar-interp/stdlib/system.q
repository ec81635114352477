% system.q: Blazar's bundled core module. Quasar programs import it for the general
% array type and its masked-assignment rewrites; Blazar performs masked assignments
% (`A[A > B] = C`) natively, so only the type names are needed here.
type matrix_type : [vec | mat | cube | cvec | cmat | ccube]
type real_matrix_type : [vec | mat | cube]
