% dtcwt.q: Blazar's bundled dual-tree complex wavelet transforms, in 2-D and 3-D
% (imports multirestransforms.q for the filter-bank levels; multirestransforms.q imports
% this module in turn, so either import gives every name).
%
% Constant filter tables (variables this module defines):
% filtercoeff_farras: the first-stage filters, Abdelnour and Selesnick's nearly symmetric
%   orthogonal ("Farras") pair aligned for the dual tree, a 2 x 10 mat: row 0 the lowpass
%   filter of tree 1, row 1 that of tree 2 (tree 2 is tree 1 moved by one sample).
% filtercoeff_dualfilt: the later-stage filters, Kingsbury's 10-tap q-shift pair (8
%   decimals, as published), a 2 x 10 mat in the same layout (row 1 is row 0 reversed).
% filtercoeff_selcw: Selesnick's common-factor Hilbert-pair filters ("The design of
%   approximate Hilbert transform pairs of wavelet bases", 2002) as a 6 x 4 cell:
%   filtercoeff_selcw[K - 1, L - 1] is the 2 x 2(K + L) mat [h0; g0] with K zeros at
%   z = -1 and an L-th order half-sample delay (Thiran allpass, tau = 1/2):
%       H(z) = F(z) D(z),  G(z) = F(z) z^-L D(1/z),  F(z) = Q(z) (1 + 1/z)^K,
%   D(z) = sum over n of d(n) z^-n, d(n) = (-1)^n C(L, n) prod_{k<n} (tau - L + k) /
%   (tau + 1 + k); Q(z) Q(1/z) is the shortest symmetric R(z) that makes H(z) H(1/z)
%   halfband, and Q its minimum-phase spectral factor; both filters are scaled to sum
%   sqrt(2). Each row is orthonormal: sum h[k] h[k + 2m] = delta(m) (checked to 1e-9
%   when the table was computed with NumPy).
% Each lowpass row h gives its highpass by the alternating flip g[k] = (-1)^k h[L-1-k];
% a 4-row table [h1; g1; h2; g2] is accepted as well.
%
% Layout of the 2-D transform (w = dtcwt2d(x, w1, w2, J)): four separable orthogonal
% DWTs ("trees") of x / 2 run, tree (a, b) filtering the columns with tree a's filters
% and the rows with tree b's (stage 1 from w1, later stages from w2, each filter reversed:
% a convolution), one filter-bank level as build_dwt's with periodic extension. Then
%   w[j][0, 0][d] = (T00 + T11) / sqrt(2),  w[j][1, 1][d] = (T00 - T11) / sqrt(2),
%   w[j][0, 1][d] = (T01 + T10) / sqrt(2),  w[j][1, 0][d] = (T01 - T10) / sqrt(2),
% for level j = 0 .. J - 1 and subband d of tree Tab at that level: d = 0 highpass along
% the rows (the top-right quarter of the level's block in build_dwt's layout), d = 1
% highpass along the columns (bottom left), d = 2 both (bottom right); each is an
% (M / 2^(j+1)) x (N / 2^(j+1)) mat. w[J][a, b] is tree (a, b)'s lowpass, (M / 2^J) x
% (N / 2^J). The pairs w[j][0, c], w[j][1, c] are the real and imaginary parts of the
% complex subbands. The transform is a tight frame: the squares of all coefficients sum
% to sum(x .^ 2), and idtcwt2d (its adjoint) inverts it. lincell(w) lists the 12 J
% subbands, level by level, then the 4 lowpass images.
%
% The 3-D transform (b = dtcwt3d_untiled(x, w1, w2, J), the whole volume at once) runs
% four 3-D DWTs of x / 2 with the tree choices (1, 1, 1), (1, 2, 2), (2, 1, 2) and
% (2, 2, 1) along dimensions 0, 1, 2, each in the 3-D Mallat layout (every level leaves
% the lowpass in the first half of each dimension of its block), and combines them,
% element by element, with the orthogonal matrix
%   0.5 [[1, -1, -1, -1], [1, -1, 1, 1], [1, 1, -1, 1], [1, 1, 1, -1]]
% into b[0] .. b[3], cubes of x's size (the lowpass corner, size(x) / 2^J, is combined
% too). A tight frame; idtcwt3d_untiled is its adjoint and inverse.
import "multirestransforms.q"

filtercoeff_farras = [[0, -0.08838834764832, 0.08838834764832, 0.69587998903400, _
    0.69587998903400, 0.08838834764832, -0.08838834764832, 0.01122679215254, _
    0.01122679215254, 0], _
    [0.01122679215254, 0.01122679215254, -0.08838834764832, 0.08838834764832, _
    0.69587998903400, 0.69587998903400, 0.08838834764832, -0.08838834764832, 0, 0]]

filtercoeff_dualfilt = [[0.03516384, 0, -0.08832942, 0.23389032, 0.76027237, 0.58751830, _
    0, -0.11430184, 0, 0], _
    [0, 0, -0.11430184, 0, 0.58751830, 0.76027237, 0.23389032, -0.08832942, 0, 0.03516384]]

filtercoeff_selcw = cell(6, 4)
filtercoeff_selcw[0, 0] = [[0.6584683610087623, 0.7498195395594982, 0.04863842017778538, -0.04271275837295051], _
    [0.21948945366958741, 0.8352450563053992, 0.48761732751696024, -0.12813827511885154]]
filtercoeff_selcw[0, 1] = [[0.3186100260244842, 0.8504842041180745, 0.392611152439421, -0.14491876634186482, -0.004114397277357548, 0.0015413434103380061], _
    [0.06372200520489683, 0.6798728824627895, 0.7256104987819588, 0.019527181672068027, -0.08222572280030797, 0.00770671705169003]]
filtercoeff_selcw[0, 2] = [[0.12946401210434172, 0.7156336969002343, 0.6781762651856661, -0.026457829278558415, -0.1008021839720551, 0.017979521406596866, 0.00026868786859496097, -4.860784172509016e-05], _
    [0.018494858872048815, 0.3981511272242431, 0.8448632620830018, 0.31696978748182963, -0.16357623312187772, -0.007673878627449436, 0.007324893353374825, -0.0003402548920756311]]
filtercoeff_selcw[0, 3] = [[0.04834737122505374, 0.4697446483109578, 0.8266578947518354, 0.24507750327130945, -0.18253887730780574, -0.006232420855681906, 0.014654388534185806, -0.0014843900473826542, -1.3996016721524592e-05, 1.4405073448748984e-06], _
    [0.005371930136117082, 0.19544532010878418, 0.748329324668274, 0.6194003881867277, -0.07418979906705207, -0.10874537731787547, 0.02806701136247235, 0.0009934856428072427, -0.00047168591326369704, 1.2964566103874086e-05]]
filtercoeff_selcw[1, 0] = [[0.45256989368190653, 0.8365480021476197, 0.2742804168082322, -0.14012240952992025, -0.01974352930359123, 0.010681188568848124], _
    [0.1508566312273022, 0.681133683988679, 0.7009302464208041, -0.006070468508675892, -0.14468009646155872, 0.032043565706544375]]
filtercoeff_selcw[1, 1] = [[0.21946187400829226, 0.7390887681797745, 0.6180219812451568, -0.06948915536540418, -0.13177324104574892, 0.037921740254200184, 0.001396166978847335, -0.00041457188202297514], _
    [0.04389237480165845, 0.4989567520492226, 0.814551827558096, 0.23233989407097105, -0.17490113134836255, -0.022117005523531137, 0.02356371017515568, -0.0020728594101148755]]
filtercoeff_selcw[1, 2] = [[0.08934938904023772, 0.5556196136187325, 0.7839626476297545, 0.1682164353370172, -0.19805731416206332, -0.011723235664389563, 0.0319372897016866, -0.005019738136154288, -8.523102306782899e-05, 1.3706031341814024e-05], _
    [0.012764198434319673, 0.2836014054660766, 0.7693008273711518, 0.5442345091838453, -0.11780125877243117, -0.12439921800866392, 0.04497470682526515, 0.003574142325897074, -0.0021316926717579736, 9.594221939269817e-05]]
filtercoeff_selcw[1, 3] = [[0.03342312428495152, 0.3476384012305068, 0.7844433266901578, 0.469733549141892, -0.1605174823038264, -0.1152015661993259, 0.05432187803095006, 0.004506876045249553, -0.004568431032751644, 0.0004299406837079571, 4.36551706622017e-06, -4.197154829728023e-07], _
    [0.0037136804761057247, 0.13765796838843122, 0.6088384829194172, 0.7442939139615771, 0.09982723429029787, -0.21197587524911052, 0.0026437119461133704, 0.03751607803356648, -0.008056349814895886, -0.0003815265085696547, 0.00014002136950945411, -3.7774393467552216e-06]]
filtercoeff_selcw[2, 0] = [[0.31272139871120724, 0.7922952779933828, 0.4964460074327436, -0.1200880584195984, -0.10990437171410251, 0.03799551273732847, 0.007843746756699185, -0.0030959511245653897], _
    [0.10424046623706908, 0.5420730026299785, 0.7770862795943045, 0.1973878947614426, -0.22251881391144676, -0.023066262831177436, 0.048298849266620675, -0.00928785337369617]]
filtercoeff_selcw[2, 1] = [[0.1519014517949767, 0.6148443197444886, 0.7320987393267284, 0.10261861144966276, -0.22368081564457837, 0.0006280176389602395, 0.04728761612452699, -0.011107748016126946, -0.000500210415106325, 0.00012358036956281094], _
    [0.030380290358995345, 0.3660111868208605, 0.7899114074357797, 0.44654046845214684, -0.15846341929431115, -0.116998671413509, 0.052722769544127746, 0.010935895479235175, -0.007444266858044064, 0.0006179018478140549]]
filtercoeff_selcw[2, 2] = [[0.061926590900480014, 0.426966272994268, 0.7859676060616333, 0.3761843436311104, -0.19661392476855932, -0.10639862521385991, 0.06656550087144983, 0.008846447292745786, -0.010767728009244906, 0.0015125103304905, 2.873613078867519e-05, -4.167848207150711e-06], _
    [0.008846655842925715, 0.20254167534313547, 0.663564515820983, 0.6816899814635679, 0.029191650827592, -0.22397538305070552, 0.018345881118611466, 0.048379737687714544, -0.013509874338286128, -0.0015000553197148333, 0.000667951914721606, -2.917493745005498e-05]]
filtercoeff_selcw[2, 3] = [[0.023192245728790667, 0.2568374227908996, 0.7000257202659219, 0.6240013023350328, -0.0369988998527168, -0.22056494902221507, 0.03663264748755257, 0.049180076875393025, -0.017245225149686252, -0.0022151941947453294, 0.0015017282902970196, -0.0001320072300475535, -1.4355836115198085e-06, 1.2963223007302384e-07], _
    [0.0025769161920878515, 0.09725525654355376, 0.48602921252270487, 0.7734673317188704, 0.2998510744114828, -0.2281494329503902, -0.08852913140383864, 0.07778283579495963, 0.0047717967961328055, -0.013396204786770812, 0.0024509446556990537, 0.00014582817625409045, -4.403198772120399e-05, 1.1666900706572145e-06]]
filtercoeff_selcw[3, 0] = [[0.21696408403048212, 0.6957351319356188, 0.6519623011356017, 0.0005890337333216354, -0.20318866873573777, 0.020814974523457454, 0.04443105020572738, -0.010987235133095245, -0.003061985449525838, 0.000954876127245083], _
    [0.07232136134349404, 0.42476867422785697, 0.7714663409048669, 0.3950031987450866, -0.19880825542695313, -0.12998092541893425, 0.07895229973167799, 0.01445120525080297, -0.01682496536653818, 0.002864628381735249]]
filtercoeff_selcw[3, 1] = [[0.10551299638619319, 0.49778791966439573, 0.7642707723397023, 0.294105321868031, -0.23182605785283417, -0.0944978190463903, 0.08626760473712088, 0.006340085364499316, -0.01730095791146088, 0.0034099405033965586, 0.00018242348782631577, -3.866716738476058e-05], _
    [0.021102599277238638, 0.26837837815078824, 0.7129657140259008, 0.605543425035447, -0.04756378837087677, -0.21442746591225123, 0.034799514500487204, 0.052591871682227134, -0.016656062380724375, -0.004786091932739814, 0.002458804134522002, -0.0001933358369238029]]
filtercoeff_selcw[3, 2] = [[0.04305506740216334, 0.32560979541671675, 0.7322762958464056, 0.5429561329747533, -0.10403379857030058, -0.20942600804380285, 0.05511230026141209, 0.05300592491761787, -0.02302782860775271, -0.0045667624334110955, 0.0037347119715470827, -0.00047361958752956834, -9.967116927364783e-06, 1.3179422030707637e-06], _
    [0.006150723914594765, 0.1449272676930472, 0.5536271124585763, 0.7417020536615357, 0.21090220128054885, -0.253669191021277, -0.06793578322915152, 0.09230294029551973, 0.00039468228504208747, -0.01877107602899195, 0.004185223822172668, 0.0006055609912924634, -0.00021737934523547911, 9.22559542149535e-06]]
filtercoeff_selcw[3, 3] = [[0.016138017515182148, 0.18946496196731422, 0.6014576565947649, 0.7077431062348684, 0.1322183560659264, -0.26830215031470545, -0.04133497007700266, 0.09759150382267358, -0.0064457888563763934, -0.02041190070178995, 0.005580672192804067, 0.000979448517085372, -0.0005076477641184363, 4.185301574250151e-05, 4.855153674875265e-07, -4.135464110644184e-08], _
    [0.0017931130572424608, 0.06886801063394497, 0.38274903954078865, 0.7439507434932496, 0.47285010476677647, -0.15669089437143052, -0.19546817363658678, 0.07503514091396332, 0.04947631458415087, -0.02885341023494893, -0.0035412928552105566, 0.004853028110977904, -0.0007666190227865393, -5.546516743885698e-05, 1.4294752172933783e-05, -3.721917699579766e-07]]
filtercoeff_selcw[4, 0] = [[0.1509635511734533, 0.584630083857096, 0.7323147832904477, 0.17052540273187325, -0.24476537778132865, -0.0506872343685697, 0.085139082167608, -0.00024551536519906264, -0.01772447234275107, 0.0031885418939445634, 0.0011792146791183618, -0.0003044975625973538], _
    [0.050321183724484436, 0.32906651788432384, 0.7190461723258039, 0.5494745267591375, -0.0942212321149488, -0.23025404519920228, 0.054443808087033724, 0.0669093076835304, -0.02845677537395955, -0.007176033253449697, 0.005973624538133916, -0.0009134926877920615]]
filtercoeff_selcw[4, 1] = [[0.07347904892195552, 0.3954498309193871, 0.7411167310363727, 0.46181698242857744, -0.1596808739378019, -0.19941552503526846, 0.07908643350891079, 0.05484632773132204, -0.03319337209782414, -0.0045313612380523, 0.0063657476546210845, -0.0010719106946299665, -6.693389968643652e-05, 1.2437075211695937e-05], _
    [0.014695809784391101, 0.19665644445900624, 0.6163500060931134, 0.6980153883998194, 0.11351374308770548, -0.2640584343094549, -0.03728051730518794, 0.09709932900108433, -0.004602139989141112, -0.022662274533871356, 0.005262032022566423, 0.0019941427939053, -0.0008321525069000199, 6.218537605847967e-05]]
filtercoeff_selcw[4, 2] = [[0.030003651154133327, 0.2467853488326201, 0.6519247221838367, 0.6523129926404424, 0.04332776288717716, -0.27250542291396807, -0.011232612971884454, 0.1027717304594487, -0.013554416939284943, -0.0245133560171513, 0.007948728376312043, 0.002104235710253353, -0.0013145628200384976, 0.00015167913030325372, 3.509316296268837e-06, -4.266554009013696e-07], _
    [0.004286235879161903, 0.1038348238998219, 0.45147357830105117, 0.7434074496299192, 0.38324608876143146, -0.20640539025148047, -0.17408149992129718, 0.09665871429089898, 0.046147770958951825, -0.03738533145935954, -0.00272993299914296, 0.007238713870731157, -0.0013078104125835075, -0.00023921220617744853, 7.235061897483526e-05, -2.9865878063095875e-06]]
filtercoeff_selcw[4, 3] = [[0.011252924975689981, 0.1395533911020743, 0.5034799282684392, 0.7330917243794683, 0.30447778964316674, -0.24381734696993565, -0.14689255453729805, 0.11215518375594295, 0.03682453697040523, -0.0417625570448905, -0.00040334386882775374, 0.008312150074447872, -0.0018067968091299079, -0.00041224129333712606, 0.0001744635028400253, -1.3536279985040685e-05, -1.6695873786212343e-07, 1.3462762433513069e-08], _
    [0.0012503249972988868, 0.04884793227264524, 0.29827814381313245, 0.6813474302559354, 0.5980006508574499, -0.025939683039377773, -0.27166951265360384, 0.01736284626474769, 0.10369996538601392, -0.023370039993134355, -0.024607391849119867, 0.01060574408419115, 0.0019161848494899606, -0.0017685612034355818, 0.00024314947751098896, 2.0991380114115208e-05, -4.733691624802248e-06, 1.2116486190161764e-07]]
filtercoeff_selcw[5, 0] = [[0.10526413421707762, 0.4772519681876948, 0.7495814636085901, 0.3442349798712801, -0.2156009021332434, -0.1492865568500476, 0.09621593333793986, 0.03846825608149285, -0.03486177075238366, -0.002760787274300705, 0.006957313163293041, -0.0009001977001947333, -0.00044939025472588826, 9.911887062288312e-05], _
    [0.03508804473902586, 0.2526521086999672, 0.6428950864905689, 0.6500280947354936, 0.05569198091503439, -0.28392708138827066, -0.02257221860797741, 0.11656275823442991, -0.012006586914111682, -0.03177983753911333, 0.010151596293168082, 0.0032733818321721013, -0.00214112172916073, 0.0002973566118686493]]
filtercoeff_selcw[5, 1] = [[0.05126887546739208, 0.3097469682502086, 0.6842467780332058, 0.5862262924000704, -0.03226417061962755, -0.2730855495798351, 0.018981293275260352, 0.10952420183932746, -0.025347836643566712, -0.02809699457085126, 0.012540945017803524, 0.0024546425838498113, -0.002343702264884654, 0.00034129184201677816, 2.4598920964625746e-05, -4.0715782391415295e-06], _
    [0.01025377509347842, 0.1439795943978691, 0.5176022237600169, 0.7314854163970275, 0.2837552511633634, -0.24672674436128386, -0.1379365726343509, 0.11200037147950954, 0.03654670119305309, -0.042284347043984274, -0.0017742829323505987, 0.009481259255023808, -0.001626172191051275, -0.0008084110464183543, 0.00028585773438878994, -2.0357891195707653e-05]]
filtercoeff_selcw[5, 2] = [[0.02094524478064707, 0.18607626143598122, 0.562495859854633, 0.7063009470156906, 0.20839214821056737, -0.27376066046035286, -0.11074306312840727, 0.12625020957555144, 0.026446522131791664, -0.0476460258145435, 0.001807295589310308, 0.01085262527370269, -0.0027025115186376705, -0.000917436936886174, 0.00046653151836937933, -4.927918404423207e-05, -1.2462517263723706e-06, 1.402814484004088e-07], _
    [0.002992177825806724, 0.07445716827519062, 0.3620491847656104, 0.7056693841836685, 0.5220974951032399, -0.0991485663918414, -0.26020029627905505, 0.049257224876139545, 0.10353157258410874, -0.035217090623592934, -0.0257430831701722, 0.014765117932872602, 0.0019969276714061884, -0.002770583863268558, 0.0004072379699081547, 9.314482724015108e-05, -2.4435284305452382e-05, 9.819701388028616e-07]]
filtercoeff_selcw[5, 3] = [[0.007859227192696947, 0.10263625895578526, 0.4134639349265925, 0.7154088008712305, 0.4530881826959425, -0.1570817762703503, -0.24224647252996664, 0.07680601196028375, 0.09614806967383192, -0.04481493927634345, -0.02302345143750836, 0.017311396085435884, 0.0012989601604664722, -0.0033319756384245563, 0.0005788634851020225, 0.00016857206484705733, -6.059100963047873e-05, 4.436877573911206e-06, 5.802902062134723e-08, -4.443490648166864e-09], _
    [0.0008732474658552164, 0.034690627862337474, 0.23050999583117487, 0.6030176112888953, 0.6721072153695458, 0.13111366486302417, -0.2923072998154771, -0.07818557863510128, 0.13634918118694492, 0.01351491264894873, -0.05094212177517168, 0.00615011633469584, 0.01151595566331375, -0.003832371107478124, -0.000923375318179567, 0.0006457457100520789, -7.76061203996193e-05, -7.907787410731995e-06, 1.5886989411521729e-06, -3.999141583350179e-08]]


% The 4-row bank [h1; g1; h2; g2] of a filter table: 2 lowpass rows get their highpass
% rows by the alternating flip; 4 rows are taken as they are.
% internal
function f = dtcwt_bank(w, who : string)
    if !(type(w, "mat") || type(w, "vec")) || (size(w, 0) != 2 && size(w, 0) != 4)
        error(sprintf("%s: a filter table is a 2-row (or 4-row) mat such as filtercoeff_farras", who))
    end
    if size(w, 0) == 4
        f = w
    else
        L = size(w, 1)
        f = zeros(4, L)
        for t = 0..1
            for k = 0..L - 1
                f[2 * t, k] = w[t, k]
                f[2 * t + 1, k] = (-1)^k * w[t, L - 1 - k]
            end
        end
    end
end

% Row k of a filter bank, reversed.
% internal
function h = dtcwt_filter(f : mat, k : int)
    h = f[k, size(f, 1) - 1..-1..0]
end

% Level l of one tree: columns with tree a, rows with tree b (0 or 1).
% internal
function [] = dtcwt_level(y : mat, t : mat, f : mat, a : int, b : int, m : int, _
        n : int, inverse)
    hc = dtcwt_filter(f, 2 * a)
    gc = dtcwt_filter(f, 2 * a + 1)
    hr = dtcwt_filter(f, 2 * b)
    gr = dtcwt_filter(f, 2 * b + 1)
    if inverse
        idwt2_level(y, t, hc, gc, hr, gr, m, n)
    else
        dwt2_level(y, t, hc, gc, hr, gr, m, n)
    end
end

% The J levels of tree (a, b) in build_dwt's layout (inverse: from that layout back).
% internal
function y = dtcwt_tree(x : mat, f1 : mat, f2 : mat, a : int, b : int, J : int, inverse)
    y = copy(x)
    t = copy(x)
    for k = 0..J - 1
        l = inverse ? J - 1 - k : k
        f = l == 0 ? f1 : f2
        dtcwt_level(y, t, f, a, b, int(size(x, 0) / 2^l), int(size(x, 1) / 2^l), inverse)
    end
end

% internal
function [] = dtcwt_check(x, J, who : string)
    if ndims(x) != 2
        error(sprintf("%s: the transform takes a mat", who))
    end
    dwt_check(x, int(J), who)
end

% Subband d (0: top right, 1: bottom left, 2: bottom right) of the m x n block of y.
% internal
function s = dtcwt_band(y : mat, d : int, m : int, n : int)
    hm = int(m / 2)
    hn = int(n / 2)
    if d == 0
        s = y[0..hm - 1, hn..n - 1]
    elseif d == 1
        s = y[hm..m - 1, 0..hn - 1]
    else
        s = y[hm..m - 1, hn..n - 1]
    end
end

% Writes subband d of the m x n block of y.
% internal
function [] = dtcwt_put_band(y : mat, d : int, m : int, n : int, s : mat)
    hm = int(m / 2)
    hn = int(n / 2)
    if d == 0
        y[0..hm - 1, hn..n - 1] = s
    elseif d == 1
        y[hm..m - 1, 0..hn - 1] = s
    else
        y[hm..m - 1, hn..n - 1] = s
    end
end

% dtcwt2d(x, w1, w2, J)
%
% The J-level 2-D dual-tree complex wavelet transform of an M×N mat (both divisible by
% 2^J), w1 the first-stage and w2 the later-stage filter table (`filtercoeff_farras`,
% `filtercoeff_dualfilt`, an entry of `filtercoeff_selcw`). The result is a cell of J + 1
% cells: w[j][r, c][d] (j < J; r, c = 0, 1; d = 0, 1, 2) the six complex subbands of
% level j, held as real (r = 0) and imaginary (r = 1) parts, and w[J][a, b] the four
% lowpass images. A tight frame: the energy of x is kept; `idtcwt2d` inverts it.
%
% Example:
%     x = reshape(0..63, [8, 8]) / 10
%     w = dtcwt2d(x, filtercoeff_farras, filtercoeff_dualfilt, 2)
%     e = 0.0
%     for b = lincell(w)
%         e += sum(b .^ 2)
%     end
%     print numel(w), " ", size(w[1][0, 1][2]), " ", abs(e - sum(x .^ 2)) < 0.01
% Output:
%     3 [2,2] 1
function w = dtcwt2d(x, w1, w2, J)
    dtcwt_check(x, J, "dtcwt2d")
    f1 = dtcwt_bank(w1, "dtcwt2d")
    f2 = dtcwt_bank(w2, "dtcwt2d")
    levels = int(J)
    [M, N] = size(x)
    T = cell(2, 2)
    for a = 0..1
        for b = 0..1
            T[a, b] = dtcwt_tree(x / 2, f1, f2, a, b, levels, 0)
        end
    end
    r = 1 / sqrt(2)
    w = cell(levels + 1)
    for j = 0..levels - 1
        m = int(M / 2^j)
        n = int(N / 2^j)
        level = cell(2, 2)
        for p = 0..1
            for q = 0..1
                level[p, q] = cell(3)
            end
        end
        for d = 0..2
            t00 = dtcwt_band(T[0, 0], d, m, n)
            t11 = dtcwt_band(T[1, 1], d, m, n)
            t01 = dtcwt_band(T[0, 1], d, m, n)
            t10 = dtcwt_band(T[1, 0], d, m, n)
            level[0, 0][d] = r * (t00 + t11)
            level[1, 1][d] = r * (t00 - t11)
            level[0, 1][d] = r * (t01 + t10)
            level[1, 0][d] = r * (t01 - t10)
        end
        w[j] = level
    end
    m = int(M / 2^levels)
    n = int(N / 2^levels)
    low = cell(2, 2)
    for a = 0..1
        for b = 0..1
            low[a, b] = T[a, b][0..m - 1, 0..n - 1]
        end
    end
    w[levels] = low
end

% idtcwt2d(w, w1, w2, J)
%
% The inverse of `dtcwt2d` (its adjoint): the image from its dual-tree coefficients,
% given as `dtcwt2d` lays them out.
%
% Example:
%     x = reshape(0..63, [8, 8]) / 10
%     y = idtcwt2d(dtcwt2d(x, filtercoeff_farras, filtercoeff_dualfilt, 2), _
%         filtercoeff_farras, filtercoeff_dualfilt, 2)
%     print max(abs(y - x)) < 1e-4
% Output:
%     1
function x = idtcwt2d(w, w1, w2, J)
    levels = int(J)
    if !type(w, "vec[??]") || numel(w) != levels + 1
        error(sprintf("idtcwt2d: expects the %d-level coefficients of dtcwt2d (a cell of %d cells)", levels, levels + 1))
    end
    f1 = dtcwt_bank(w1, "idtcwt2d")
    f2 = dtcwt_bank(w2, "idtcwt2d")
    low = w[levels]
    [lm, ln] = size(low[0, 0])
    M = lm * 2^levels
    N = ln * 2^levels
    T = cell(2, 2)
    for a = 0..1
        for b = 0..1
            T[a, b] = zeros(M, N)
            T[a, b][0..lm - 1, 0..ln - 1] = low[a, b]
        end
    end
    r = 1 / sqrt(2)
    for j = 0..levels - 1
        m = int(M / 2^j)
        n = int(N / 2^j)
        level = w[j]
        for d = 0..2
            dtcwt_put_band(T[0, 0], d, m, n, r * (level[0, 0][d] + level[1, 1][d]))
            dtcwt_put_band(T[1, 1], d, m, n, r * (level[0, 0][d] - level[1, 1][d]))
            dtcwt_put_band(T[0, 1], d, m, n, r * (level[0, 1][d] + level[1, 0][d]))
            dtcwt_put_band(T[1, 0], d, m, n, r * (level[0, 1][d] - level[1, 0][d]))
        end
    end
    x = zeros(M, N)
    for a = 0..1
        for b = 0..1
            x += dtcwt_tree(T[a, b], f1, f2, a, b, levels, 1) / 2
        end
    end
end

% [S, S_H] = build_dtcwt(w1, w2, J)
%
% The dual-tree transform and its inverse as a pair of functions: S(x) = dtcwt2d(x, w1,
% w2, J), S_H(w) = idtcwt2d(w, w1, w2, J).
%
% Example:
%     [S, S_H] = build_dtcwt(filtercoeff_farras, filtercoeff_dualfilt, 1)
%     x = ones(4, 4)
%     print max(abs(S_H(S(x)) - x)) < 1e-4
% Output:
%     1
function [S, S_H] = build_dtcwt(w1, w2, J)
    S = x -> dtcwt2d(x, w1, w2, J)
    S_H = w -> idtcwt2d(w, w1, w2, J)
end

% One analysis level along dimension `axis` of the top-left block (n long along it).
function [] = __kernel__ dwt3_axis_kernel(x : cube'unchecked, y : cube'unchecked, _
        h : vec'unchecked, g : vec'unchecked, n : int, half : int, axis : int, pos : ivec3)
    lo = 0.0
    hi = 0.0
    p = pos
    for k = 0..numel(h) - 1
        p[axis] = mod(2 * pos[axis] + k, n)
        v = x[p]
        lo += h[k] * v
        hi += g[k] * v
    end
    q = pos
    q[axis] = pos[axis] + half
    y[pos] = lo
    y[q] = hi
end

% Its adjoint.
function [] = __kernel__ idwt3_axis_kernel(w : cube'unchecked, y : cube'unchecked, _
        h : vec'unchecked, g : vec'unchecked, n : int, half : int, axis : int, pos : ivec3)
    acc = 0.0
    p = pos
    for k = 0..numel(h) - 1
        d = periodize(pos[axis] - k, n)
        if mod(d, 2) == 0
            p[axis] = shr(d, 1)
            lo = w[p]
            p[axis] = shr(d, 1) + half
            acc += h[k] * lo + g[k] * w[p]
        end
    end
    y[pos] = acc
end

% One pass along dimension `axis` of the top-left blk block: src to dst.
% internal
function [] = dwt3_pass(src : cube, dst : cube, f : mat, tree : int, blk : ivec3, _
        axis : int, inverse)
    h = dtcwt_filter(f, 2 * tree)
    g = dtcwt_filter(f, 2 * tree + 1)
    n = blk[axis]
    half = int(n / 2)
    if inverse
        parallel_do(blk, src, dst, h, g, n, half, axis, idwt3_axis_kernel)
    else
        launch = copy(blk)
        launch[axis] = half
        parallel_do(launch, src, dst, h, g, n, half, axis, dwt3_axis_kernel)
    end
end

% The J levels of a 3-D tree (trees[d]: the tree along dimension d) in the 3-D Mallat
% layout, or back from it.
% internal
function y = dwt3_tree(x : cube, f1 : mat, f2 : mat, trees : ivec3, J : int, inverse)
    y = copy(x)
    t = copy(x)
    u = copy(x)
    for k = 0..J - 1
        l = inverse ? J - 1 - k : k
        f = l == 0 ? f1 : f2
        blk = int(size(x, 0..2) / 2^l)
        if inverse
            dwt3_pass(y, u, f, trees[2], blk, 2, 1)
            dwt3_pass(u, t, f, trees[1], blk, 1, 1)
            dwt3_pass(t, y, f, trees[0], blk, 0, 1)
        else
            dwt3_pass(y, t, f, trees[0], blk, 0, 0)
            dwt3_pass(t, u, f, trees[1], blk, 1, 0)
            dwt3_pass(u, y, f, trees[2], blk, 2, 0)
        end
    end
end

% The tree choices of the four 3-D trees, and the orthogonal matrix combining them.
% internal
function [trees, C] = dtcwt3d_trees()
    trees = [[0, 0, 0], [0, 1, 1], [1, 0, 1], [1, 1, 0]]
    C = 0.5 * [[1, -1, -1, -1], [1, -1, 1, 1], [1, 1, -1, 1], [1, 1, 1, -1]]
end

% internal
function [] = dtcwt3d_check(x, J, who : string)
    if ndims(x) > 3 || ndims(x) < 3 && size(x, 2) != 1
        error(sprintf("%s: the transform takes a cube", who))
    end
    step = 2^int(J)
    if int(J) < 1
        error(sprintf("%s: J must be at least 1", who))
    end
    if any(mod(size(x, 0..2), step) != 0)
        error(sprintf("%s: %d x %d x %d is not divisible by 2^%d in every dimension", who, _
            size(x, 0), size(x, 1), size(x, 2), int(J)))
    end
end

% dtcwt3d_untiled(x, w1, w2, J)
%
% The J-level 3-D dual-tree wavelet transform of a cube whose three sides are divisible
% by 2^J, computed on the whole volume at once: a cell of four cubes of x's size, b[0]
% to b[3], each holding its tree's subbands in the 3-D Mallat layout (the lowpass in the
% corner of size size(x) / 2^J). w1 and w2 are the first-stage and later-stage filter
% tables, as for `dtcwt2d`. A tight frame; `idtcwt3d_untiled` inverts it.
%
% Example:
%     x = reshape(0..63, [4, 4, 4]) / 10
%     b = dtcwt3d_untiled(x, filtercoeff_farras, filtercoeff_dualfilt, 1)
%     e = sum(b[0] .^ 2) + sum(b[1] .^ 2) + sum(b[2] .^ 2) + sum(b[3] .^ 2)
%     print numel(b), " ", size(b[2]), " ", abs(e - sum(x .^ 2)) < 0.01
% Output:
%     4 [4,4,4] 1
function b = dtcwt3d_untiled(x, w1, w2, J)
    dtcwt3d_check(x, J, "dtcwt3d_untiled")
    f1 = dtcwt_bank(w1, "dtcwt3d_untiled")
    f2 = dtcwt_bank(w2, "dtcwt3d_untiled")
    [trees, C] = dtcwt3d_trees()
    u = cell(4)
    for t = 0..3
        u[t] = dwt3_tree(x / 2, f1, f2, trees[t, :], int(J), 0)
    end
    b = cell(4)
    for k = 0..3
        b[k] = C[k, 0] * u[0] + C[k, 1] * u[1] + C[k, 2] * u[2] + C[k, 3] * u[3]
    end
end

% idtcwt3d_untiled(b, w1, w2, J)
%
% The inverse of `dtcwt3d_untiled` (its adjoint): the cube from its four coefficient
% cubes.
%
% Example:
%     x = reshape(0..63, [4, 4, 4]) / 10
%     [f1, f2] = [filtercoeff_farras, filtercoeff_dualfilt]
%     y = idtcwt3d_untiled(dtcwt3d_untiled(x, f1, f2, 2), f1, f2, 2)
%     print max(abs(y - x)) < 1e-4
% Output:
%     1
function x = idtcwt3d_untiled(b, w1, w2, J)
    if !type(b, "vec[??]") || numel(b) != 4
        error("idtcwt3d_untiled: expects the four coefficient cubes of dtcwt3d_untiled")
    end
    dtcwt3d_check(b[0], J, "idtcwt3d_untiled")
    f1 = dtcwt_bank(w1, "idtcwt3d_untiled")
    f2 = dtcwt_bank(w2, "idtcwt3d_untiled")
    [trees, C] = dtcwt3d_trees()
    x = zeros(size(b[0]))
    for t = 0..3
        u = C[0, t] * b[0] + C[1, t] * b[1] + C[2, t] * b[2] + C[3, t] * b[3]
        x += dwt3_tree(u, f1, f2, trees[t, :], int(J), 1) / 2
    end
end
