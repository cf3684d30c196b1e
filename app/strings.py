"""Every string the explainer shows, in English, Korean and Spanish: one table, so no label is hard-coded in a view.

The page receives the whole table and switches language without a reload; tests check that each language's
page shows none of the other's strings. `{name}`-style fields are filled by the renderers.
"""

# The guided path's steps (app/steps.py), each: its title, the paragraph ({name}s are live numbers and class
# names, static/tour.mjs `live_numbers`), the task, the hint, and what it says once the task is done.
TOUR_EN = {
    "scores": {
        "title": "Scores become probabilities",
        "text": "Each class has a score z, its logit. Softmax turns the scores into probabilities: "
                "p<sub>k</sub> = e<sup>z<sub>k</sub>/T</sup> / Σ<sub>j</sub> e<sup>z<sub>j</sub>/T</sup>. Every p lies "
                "between 0 and 1, and together they add up to 1. Now {name0} has p = {p0} and {name1} has p = {p1}.",
        "task": "Make {name1}'s probability larger than {name0}'s without moving {name0}.",
        "hint": "Drag the {name1} point above the {name0} point, or type a larger logit for {name1} under the figures.",
        "done": "The order and the gaps of the scores decide: the larger score has the larger probability.",
        "missing": ["", "{name0} moved from {z0_start} to {z0}: drag it back, or press “Back to the initial "
                        "logits”."],
    },
    "shift": {
        "title": "Only differences matter",
        "text": "Adding the same number c to every score changes nothing: e<sup>(z<sub>k</sub> + c)/T</sup> = "
                "e<sup>c/T</sup>·e<sup>z<sub>k</sub>/T</sup>, and e<sup>c/T</sup> cancels between the top and the "
                "bottom. {name0}'s score is {z0} and its probability p = {p0}.",
        "task": "Press “Add 1 to every logit” three times: the points rise, the bars stay.",
        "hint": "The button is under the figures. Watch the bars while the points move up.",
        "done": "The probabilities did not move: softmax sees only the differences between scores.",
        "predict": "When every score rises by 1, the bars will…",
        "choices": ["rise", "stay as they are", "fall"],
    },
    "naive": {
        "title": "Why code subtracts the largest score",
        "text": "Computed as written, softmax takes e<sup>z/T</sup> of every score, and float64 holds numbers up to "
                "about e<sup>709.78</sup>. Here the largest z/T is {zmax}: {naive_now}. The figures stay exact: they "
                "subtract the largest score first, which changes nothing (the step before) and keeps every exponent "
                "at or below 0.",
        "task": "Without changing T, make the naive softmax give numbers: press “Subtract the largest logit” and "
                "compare the table's columns.",
        "hint": "The button is beside “Add 1 to every logit”. Raising T would also end the overflow, but it changes "
                "the model: the probabilities would change with it.",
        "done": "The same probabilities, and no overflow: libraries compute e<sup>(z − max z)/T</sup>, and the "
                "naive column now agrees with the others.",
        "missing": ["Open the naive softmax's table (“Break the naive softmax”) to see the overflow.", "",
                    "T changed: press “Start again”. The fix must leave the model as it is."],
    },
    "temperature": {
        "title": "Temperature: from argmax to uniform",
        "text": "Dividing the scores by T sharpens or flattens the probabilities. As T → 0 the largest score takes "
                "everything (argmax); as T grows every class tends to 1/K. Now T = {T}, and the entropy, how spread "
                "out p is, is {entropy_bits} bits; it is at most log<sub>2</sub> K.",
        "task": "Find a T at which the entropy is above 1.5 bits.",
        "hint": "The higher the temperature, the flatter the bars: move the temperature slider right.",
        "done": "Near the uniform distribution the entropy approaches log<sub>2</sub> 3 ≈ 1.585 bits, the most three "
                "classes can hold.",
        "predict": "As T goes to 0, the probabilities go to…",
        "choices": ["all on the largest score (argmax)", "1/K each (uniform)", "stay as they are"],
    },
    "lse": {
        "title": "log-sum-exp, a smooth maximum",
        "text": "The bottom of softmax, in log form, is log-sum-exp: LSE(z/T) = ln Σ<sub>k</sub> "
                "e<sup>z<sub>k</sub>/T</sup>. It lies between the largest z/T and that plus ln K: now {zmax} ≤ {lse} "
                "≤ {zmax} + {lnK} (ln K is a plain number, as z/T is). The log of a probability is then "
                "ln p<sub>k</sub> = z<sub>k</sub>/T − LSE(z/T).",
        "task": "Bring log-sum-exp within 0.05 of the largest z/T.",
        "hint": "Lower the temperature, or drag the largest score further above the others.",
        "done": "When one score dominates, log-sum-exp is the maximum itself; when the scores are close, it is up to "
                "ln K above it.",
    },
    "sigmoid": {
        "title": "Two classes: the sigmoid",
        "text": "With two classes softmax is the sigmoid of the difference: p<sub>1</sub> = σ((z<sub>1</sub> − "
                "z<sub>2</sub>)/T). Equal scores give 0.5; now {name0} has p = {p0}.",
        "task": "Make {name0}'s probability about 0.88: between 0.85 and 0.91.",
        "hint": "σ(2) ≈ 0.881: make {name0}'s score 2 more than {name1}'s. Type 2 in the first logit box, or drag.",
        "done": "Logistic regression is the two-class softmax: one difference of scores, one sigmoid.",
        "predict": "With {name0}'s score 2 above {name1}'s, {name0}'s probability will be about…",
        "choices": ["0.67", "0.88", "0.99"],
    },
    "loss": {
        "title": "The loss: −ln p of the true class",
        "text": "With a one-hot target, cross-entropy is L = −ln p<sub>y</sub>: the surprise at the true class. The "
                "true class {name_y} now has p = {p_y}, and the loss is {loss}. A model sure of the right answer pays "
                "almost nothing; one sure of a wrong answer pays a lot.",
        "task": "Make the loss smaller than 0.1 nats.",
        "hint": "Drag the true class's point up, or the others down: p<sub>y</sub> has to pass e<sup>−0.1</sup> ≈ "
                "0.905.",
        "done": "Training makes this number small over many examples: maximum likelihood, in other words.",
        "predict": "If the true class's probability halves, the loss…",
        "choices": ["halves", "rises by ln 2 ≈ 0.693 nats", "doubles"],
    },
    "information": {
        "title": "Cross-entropy = entropy + KL, in bits or nats",
        "text": "The loss splits into a floor and a distance: H(y′, p) = H(y′) + KL(y′‖p). With a one-hot target "
                "the floor H(y′) is 0, and all of the loss is the KL divergence. The loss is now {loss}; one bit is "
                "ln 2 ≈ 0.693 nats.",
        "task": "Switch the units to bits: the same loss, divided by ln 2.",
        "hint": "Press “bits”, beside the label smoothing slider.",
        "done": "Bits count yes-or-no questions, nats are what ln gives: the same information in other units.",
    },
    "gradient": {
        "title": "The gradient p − y, and the arrows",
        "text": "The loss's slope in each score is ∂L/∂z<sub>k</sub> = (p<sub>k</sub> − y′<sub>k</sub>)/T. The teal "
                "arrows show −∂L/∂z, where a gradient step moves each score: the true class up by (1 − "
                "p<sub>y</sub>)/T, every other class down by p<sub>k</sub>/T. The true class's arrow is now {g_y}. "
                "Confident and right: tiny arrows. Confident and wrong: the largest.",
        "task": "Make the model confidently wrong: {name1} above 0.9 while {name0} stays the true class.",
        "hint": "Drag {name1} up by about four, and watch {name0}'s arrow grow toward its largest, 1/T.",
        "done": "The worse the mistake, the stronger the push, up to 1/T: cross-entropy learns fast from confident "
                "errors.",
    },
    "runaway": {
        "title": "The loss never reaches 0",
        "text": "A gradient step moves the scores along the arrows: z ← z − η·(p − y′)/T. The loss falls, but "
                "p<sub>y</sub> = 1 would need scores infinitely far apart, so they keep running apart while the loss "
                "creeps toward 0. The loss is now {loss}.",
        "task": "Take gradient steps until the loss is below 0.02.",
        "hint": "Press “Take a step” again and again, or “Play” and then “Pause”.",
        "done": "Each step gains less: with a one-hot target the scores grow without end. Label smoothing, next, "
                "gives them a place to stop.",
    },
    "smoothing": {
        "title": "Label smoothing: a floor and a best gap",
        "text": "With ε > 0 the target is y′ = (1 − ε)·onehot(y) + ε/K: even the perfect answer keeps some doubt. "
                "The loss then has a floor H(y′) = {floor} it cannot pass, reached at a finite best gap between the "
                "true score and the others. The loss is now {loss}.",
        "task": "Take steps until the loss is within 0.001 of its floor.",
        "hint": "Play the steps: the points stop at the best gap instead of running away.",
        "done": "The scores settle: smoothing keeps a model from growing its logits without end.",
    },
    "sampling": {
        "title": "Sampling draws the bars",
        "text": "A model that gives p can also be sampled: the Gumbel-max trick draws class k with probability "
                "p<sub>k</sub> (add Gumbel noise to z/T, take the largest). It is McFadden's choice model (1974): a "
                "chooser who adds Gumbel noise to each score picks by softmax, the name Bridle gave it in 1990. With "
                "N = {n} draws the frequencies wander around p; more draws close in on the bars.",
        "task": "Draw at least 10,000 samples.",
        "hint": "Type 10000 in “Draws N”.",
        "done": "The frequencies stay within their ±2σ whiskers, which shrink as 1/√N.",
    },
    "calibration": {
        "title": "90 % sure is not 90 % right",
        "text": "A real classifier of handwritten digits (the UCI digits, held out from its training) scores ten "
                "classes; below is how sure it is against how often it is right. At T = 1 most of its bars sit under "
                "the diagonal: it is overconfident. Temperature scaling divides all its logits by one number T, fitted "
                "on validation digits by maximum likelihood (the least mean NLL). The classifier's T is now {cT}.",
        "task": "Bring the classifier's T to where the validation NLL is least, about 2.36.",
        "hint": "Press “Fit T on validation”, or move “The classifier's temperature T” to the bottom of the dashed "
                "curve.",
        "done": "The gaps shrink and ECE falls, while the accuracy stays what it was: dividing by T never changes "
                "which logit is largest.",
        "missing": ["Open “Calibrate a real classifier” (under “Try:”) to see the classifier.",
                    "T is below the fit: the validation NLL still falls as T rises.",
                    "T is past the fit: the validation NLL rises again."],
        "predict": "Raise the classifier's T: its accuracy will…",
        "choices": ["rise", "stay the same", "fall"],
    },
    "decoding": {
        "title": "Decoding: T, then top-k, top-p and min-p",
        "text": "A language model draws its next token from a softmax over its whole vocabulary. Here the logits are "
                "a real vocabulary's ln(frequency) (grey): a model with no context. Decoding divides them by T, then "
                "cuts the tail, in Hugging Face's order: top-k keeps the k most probable words, top-p the fewest "
                "whose mass reaches p, min-p those with p ≥ min-p · max p; what is kept is renormalised (blue). "
                "Now T = {T} and top-p = {topp}.",
        "task": "Keep top-p on and lower T below 0.6: watch “Kept” fall.",
        "hint": "Move the temperature slider left; “Top-p” is beside the vocabulary.",
        "done": "A lower T puts the mass on fewer words, so the same nucleus holds far fewer: T acts first, the "
                "filters cut what it leaves.",
        "missing": ["Open “On to language models” (under “Try:”) to see the vocabulary.", "",
                    "Top-p is off (1): set it below 1 again."],
        "predict": "With top-p = 0.9, T falls from 1 to 0.5. The words kept will be…",
        "choices": ["more", "fewer", "as many"],
    },
    "attention": {
        "title": "Attention is a softmax, and ALiBi a factor e<sup>−m·d</sup>",
        "text": "Attention weighs the tokens before a query by a softmax over their scores. Here the classes are six "
                "tokens whose scores are the logits, all equal at the start: nothing tells them apart. ALiBi adds −m·d "
                "to a score d tokens back, and softmax turns that into a factor e<sup>−m·d</sup>: head h has the slope "
                "m = 2<sup>−h</sup> (of eight heads). The last token's weight on the first is now {alibi_far} of its "
                "weight on itself.",
        "task": "Choose the ALiBi head that gives the first token less than a tenth of what the last token gives "
                "itself.",
        "hint": "“ALiBi head” is above the attention map; the steeper the slope m, the faster the weights fall "
                "with distance d = 5.",
        "done": "e<sup>−5/2</sup> ≈ 0.08: the farther back, the smaller the weight, by the same factor per step "
                "of distance.",
        "missing": ["Open “On to language models” (under “Try:”) to see the attention map.", ""],
        "predict": "Head 1 (m = 1/2): the last token's weight on the token just before it, against its weight "
                   "on itself, will be…",
        "choices": ["e<sup>−1/2</sup> ≈ 0.61 times", "1/2 times", "the same"],
    },
    "router": {
        "title": "A router sends each token to k experts",
        "text": "A mixture of experts scores every expert for a token, keeps the k largest scores and weighs their "
                "outputs by a softmax over those k alone. Here the classes are the experts and their logits the "
                "router's scores, with k = {rk}; it chooses {routed}.",
        "task": "Make the router send the token to {name2}, with k still 2.",
        "hint": "Drag the {name2} point above the {name1} point in the logits figure at the top, or type a larger "
                "logit for {name2}.",
        "done": "Exactly k experts run: {name2} took {name1}'s place, and the two weights again add up to 1.",
        "missing": ["Open “On to language models” (under “Try:”) to see the router.", "",
                    "k changed: set the router's k back to 2."],
        "predict": "k = 2. When {name2}'s score passes {name1}'s, how many experts run?",
        "choices": ["2: {name2} replaces {name1}", "3: {name2} joins them", "1: only {name0}"],
    },
    "start": {
        "title": "A model that knows nothing starts at ln K",
        "text": "Before training, a model has no reason to prefer a class: equal scores give p = 1/K and the loss "
                "ln K, here {ln_k}; for a language model it is ln V over its vocabulary, 10.82 for GPT-2's 50,257 "
                "tokens. Every model should start near there; a much larger first loss means something is off. The "
                "loss is now {loss}.",
        "task": "Make every score equal: the loss becomes ln K.",
        "hint": "Choose the scenario “Knows nothing: equal logits”, or type the same value in every logit box.",
        "done": "ln K is the benchmark: learning is a loss below it. That is the whole path; turn “Guided path” "
                "off for free play.",
    },
}
TOUR_KO = {
    "scores": {
        "title": "점수가 확률이 됩니다",
        "text": "부류마다 점수 z(로짓)가 있습니다. 소프트맥스는 점수를 확률로 바꿉니다: "
                "p<sub>k</sub> = e<sup>z<sub>k</sub>/T</sup> / Σ<sub>j</sub> e<sup>z<sub>j</sub>/T</sup>. 모든 p는 0과 "
                "1 사이에 있고, 다 더하면 1입니다. 지금 {name0} 확률은 p = {p0}, {name1} 확률은 p = {p1}입니다.",
        "task": "{name0} 점수는 그대로 두고, {name1} 확률이 {name0} 확률보다 커지게 만들어 보세요.",
        "hint": "{name1} 점을 {name0} 점보다 위로 끌거나, 그림 아래 칸에 {name1} 점수를 더 크게 입력해 보세요.",
        "done": "점수의 순서와 차이가 결정합니다: 점수가 큰 부류가 확률도 큽니다.",
        "missing": ["", "{name0} 점수가 {z0_start}에서 {z0}(으)로 움직였습니다: 다시 끌어 놓거나 "
                        "“처음 점수로 되돌리기”를 누르세요."],
    },
    "shift": {
        "title": "차이만이 중요합니다",
        "text": "모든 점수에 같은 수 c를 더해도 아무것도 바뀌지 않습니다: e<sup>(z<sub>k</sub> + c)/T</sup> = "
                "e<sup>c/T</sup>·e<sup>z<sub>k</sub>/T</sup>이고, e<sup>c/T</sup>는 분자와 분모에서 약분됩니다. "
                "{name0} 점수는 {z0}, 확률은 p = {p0}입니다.",
        "task": "“모든 점수에 1 더하기”를 세 번 눌러 보세요: 점은 올라가고 막대는 그대로입니다.",
        "hint": "버튼은 그림 아래에 있습니다. 점이 올라가는 동안 막대를 지켜보세요.",
        "done": "확률은 움직이지 않았습니다: 소프트맥스는 점수 사이의 차이만 봅니다.",
        "predict": "모든 점수가 1씩 오르면 막대는…",
        "choices": ["올라간다", "그대로다", "내려간다"],
    },
    "naive": {
        "title": "코드가 가장 큰 점수를 빼는 까닭",
        "text": "쓰인 그대로 계산하면 소프트맥스는 모든 점수의 e<sup>z/T</sup>를 구하는데, float64는 약 "
                "e<sup>709.78</sup>까지만 담습니다. 지금 가장 큰 z/T는 {zmax}입니다: {naive_now}. 그림은 정확합니다: "
                "먼저 가장 큰 점수를 빼기 때문입니다. 앞 단계에서 본 대로 이것은 아무것도 바꾸지 않고, 모든 지수를 "
                "0 이하로 둡니다.",
        "task": "T는 그대로 두고, 그대로 계산한 소프트맥스가 숫자를 내게 해 보세요: “가장 큰 점수 빼기”를 누르고 "
                "표의 열을 비교해 보세요.",
        "hint": "버튼은 “모든 점수에 1 더하기” 옆에 있습니다. T를 올려도 넘침은 멈추지만, 그러면 모형이 바뀌어 "
                "확률도 함께 달라집니다.",
        "done": "확률은 같고 넘침은 없습니다: 라이브러리는 e<sup>(z − max z)/T</sup>를 계산하고, 그대로 계산한 "
                "열도 이제 다른 열과 같습니다.",
        "missing": ["넘침을 보려면 그대로 계산한 소프트맥스의 표를 여세요 (“그대로 계산한 소프트맥스 깨뜨리기”).", "",
                    "T가 바뀌었습니다: “처음부터 다시”를 누르세요. 고치는 방법은 모형을 그대로 두어야 합니다."],
    },
    "temperature": {
        "title": "온도: argmax에서 균등 분포까지",
        "text": "점수를 T로 나누면 확률이 뾰족해지거나 평평해집니다. T → 0이면 가장 큰 점수가 전부를 가지고(argmax), "
                "T가 커지면 모든 부류가 1/K에 다가갑니다. 지금 온도는 T = {T}, p가 얼마나 퍼져 있는지 나타내는 "
                "엔트로피는 {entropy_bits} 비트이며, 최대는 log<sub>2</sub> K입니다.",
        "task": "엔트로피가 1.5 비트보다 커지는 T를 찾아보세요.",
        "hint": "온도가 높을수록 막대가 평평해집니다: 온도 슬라이더를 오른쪽으로 옮겨 보세요.",
        "done": "균등 분포에 가까워지면 엔트로피는 세 부류가 담을 수 있는 최대, log<sub>2</sub> 3 ≈ 1.585 비트에 "
                "다가갑니다.",
        "predict": "T가 0에 가까워지면 확률은…",
        "choices": ["가장 큰 점수에 모두 간다 (argmax)", "모두 1/K가 된다 (균등)", "그대로다"],
    },
    "lse": {
        "title": "로그합지수, 부드러운 최댓값",
        "text": "소프트맥스의 분모를 로그로 쓰면 로그합지수입니다: LSE(z/T) = ln Σ<sub>k</sub> "
                "e<sup>z<sub>k</sub>/T</sup>. 이 값은 가장 큰 z/T와 거기에 ln K를 더한 값 사이에 있습니다: 지금 "
                "{zmax} ≤ {lse} ≤ {zmax} + {lnK} (ln K도 z/T처럼 단위 없는 수). 확률의 로그는 "
                "ln p<sub>k</sub> = z<sub>k</sub>/T − LSE(z/T)입니다.",
        "task": "로그합지수가 가장 큰 z/T와 0.05 안으로 가까워지게 만들어 보세요.",
        "hint": "온도를 낮추거나, 가장 큰 점수를 다른 점수들보다 더 위로 끌어 보세요.",
        "done": "한 점수가 압도하면 로그합지수는 최댓값 그 자체이고, 점수들이 비슷하면 최대 ln K만큼 위에 있습니다.",
    },
    "sigmoid": {
        "title": "두 부류: 시그모이드",
        "text": "부류가 둘이면 소프트맥스는 점수 차이의 시그모이드입니다: p<sub>1</sub> = σ((z<sub>1</sub> − "
                "z<sub>2</sub>)/T). 점수가 같으면 0.5이고, 지금 {name0} 확률은 p = {p0}입니다.",
        "task": "{name0} 확률을 약 0.88로, 0.85와 0.91 사이로 만들어 보세요.",
        "hint": "σ(2) ≈ 0.881: {name0} 점수를 {name1} 점수보다 2 크게 하세요. 첫 번째 점수 칸에 2를 입력하거나 점을 "
                "끌어 보세요.",
        "done": "로지스틱 회귀는 두 부류의 소프트맥스입니다: 점수 차이 하나, 시그모이드 하나.",
        "predict": "{name0} 점수가 {name1} 점수보다 2 크면 {name0} 확률은 대략…",
        "choices": ["0.67", "0.88", "0.99"],
    },
    "loss": {
        "title": "손실: 정답 부류의 −ln p",
        "text": "목표가 원-핫이면 교차 엔트로피는 L = −ln p<sub>y</sub>, 정답 부류에 대한 놀람입니다. 지금 정답 부류 "
                "{name_y} 확률은 p = {p_y}, 손실은 {loss}입니다. 정답을 확신하는 모델은 거의 치르지 않고, 틀린 답을 "
                "확신하는 모델은 크게 치릅니다.",
        "task": "손실을 0.1 내트보다 작게 만들어 보세요.",
        "hint": "정답 부류의 점을 위로, 다른 점을 아래로 끌어 보세요: p<sub>y</sub>가 e<sup>−0.1</sup> ≈ 0.905를 "
                "넘어야 합니다.",
        "done": "학습은 많은 예에서 이 수를 작게 만듭니다: 다른 말로 최대가능도입니다.",
        "predict": "정답 부류의 확률이 절반이 되면 손실은…",
        "choices": ["절반이 된다", "ln 2 ≈ 0.693 내트만큼 오른다", "두 배가 된다"],
    },
    "information": {
        "title": "교차 엔트로피 = 엔트로피 + KL 발산, 비트와 내트",
        "text": "손실은 하한과 거리로 나뉩니다: H(y′, p) = H(y′) + KL(y′‖p). 목표가 원-핫이면 하한 H(y′)는 0이고, "
                "손실 전부가 KL 발산(쿨백–라이블러 발산)입니다. 지금 손실은 {loss}이며, 1 비트는 ln 2 ≈ 0.693 "
                "내트입니다.",
        "task": "단위를 비트로 바꿔 보세요: 같은 손실을 ln 2로 나눈 값입니다.",
        "hint": "라벨 스무딩 슬라이더 옆의 “비트”를 누르세요.",
        "done": "비트는 예-아니요 질문의 수를 세고, 내트는 ln이 주는 단위입니다: 같은 정보량, 다른 단위.",
    },
    "gradient": {
        "title": "기울기 p − y와 청록 화살표",
        "text": "각 점수에 대한 손실의 기울기는 ∂L/∂z<sub>k</sub> = (p<sub>k</sub> − y′<sub>k</sub>)/T입니다. 청록 "
                "화살표는 −∂L/∂z, 경사 하강 한 걸음이 점수를 옮기는 쪽입니다: 정답 부류는 (1 − p<sub>y</sub>)/T만큼 "
                "위로, 다른 부류는 p<sub>k</sub>/T만큼 아래로. 지금 정답 부류의 화살표는 {g_y}입니다. 확신하고 맞으면 "
                "화살표가 작고, 확신하고 틀리면 가장 큽니다.",
        "task": "모델이 확신하고 틀리게 만들어 보세요: 정답은 {name0} 그대로, {name1} 확률은 0.9보다 크게.",
        "hint": "{name1} 점을 4쯤 위로 끌고, {name0} 화살표가 가장 큰 크기 1/T로 자라는 것을 보세요.",
        "done": "틀림이 클수록 미는 힘이 세고, 최대 1/T입니다: 교차 엔트로피는 확신한 실수에서 빨리 배웁니다.",
    },
    "runaway": {
        "title": "손실은 0에 닿지 않습니다",
        "text": "경사 하강 한 걸음은 화살표를 따라 점수를 옮깁니다: z ← z − η·(p − y′)/T. 손실은 줄지만 "
                "p<sub>y</sub> = 1이 되려면 점수가 끝없이 멀어져야 하므로, 손실이 0으로 천천히 다가가는 동안 "
                "점수는 계속 "
                "벌어집니다. 지금 손실은 {loss}입니다.",
        "task": "손실이 0.02보다 작아질 때까지 경사 하강을 한 걸음씩 해 보세요.",
        "hint": "“한 걸음 내딛기”를 여러 번 누르거나, “재생”을 누른 뒤 “멈춤”을 누르세요.",
        "done": "걸음마다 얻는 것이 줄어듭니다: 원-핫 목표에서는 점수가 끝없이 커집니다. 다음 단계의 라벨 스무딩이 "
                "멈출 곳을 줍니다.",
    },
    "smoothing": {
        "title": "라벨 스무딩: 하한과 가장 좋은 차이",
        "text": "ε > 0이면 목표는 y′ = (1 − ε)·onehot(y) + ε/K입니다: 완벽한 답에도 의심이 조금 남습니다. 그러면 "
                "손실에는 내려갈 수 없는 하한 H(y′) = {floor}이 생기고, 정답 점수와 다른 점수 사이의 유한한 차이에서 "
                "그 하한에 닿습니다. 지금 손실은 {loss}입니다.",
        "task": "손실이 하한과 0.001 안으로 가까워질 때까지 경사 하강을 해 보세요.",
        "hint": "걸음을 재생해 보세요: 점이 멀어지지 않고 가장 좋은 차이에서 멈춥니다.",
        "done": "점수가 자리를 잡습니다: 스무딩은 모델이 점수를 끝없이 키우지 않게 합니다.",
    },
    "sampling": {
        "title": "뽑기가 막대를 그립니다",
        "text": "p를 내놓는 모델에서 부류를 뽑을 수도 있습니다: 굼벨 최대 트릭은 부류 k를 확률 p<sub>k</sub>로 "
                "뽑습니다(z/T에 굼벨 분포의 잡음을 더하고 가장 큰 것을 고릅니다). 이것은 맥패든(McFadden)의 선택 "
                "모형(1974)입니다: 점수마다 굼벨 분포의 잡음을 더해 고르는 사람은 소프트맥스로 고르고, 이 이름은 "
                "브라이들(Bridle)이 1990년에 붙였습니다. N = {n}번 뽑으면 빈도가 p 주위를 헤매고, 많이 뽑을수록 "
                "막대에 다가갑니다.",
        "task": "10,000번 이상 뽑아 보세요.",
        "hint": "“뽑는 횟수 N” 칸에 10000을 입력하세요.",
        "done": "빈도는 ±2σ 수염 안에 있고, 수염은 1/√N로 줄어듭니다.",
    },
    "calibration": {
        "title": "90 % 확신은 90 % 정답이 아닙니다",
        "text": "손글씨 숫자를 분류하는 실제 분류기(UCI 숫자, 학습에 쓰지 않은 데이터)가 열 부류에 점수를 매깁니다. "
                "아래 그림은 얼마나 확신하는지와 얼마나 자주 맞는지를 견줍니다. T = 1에서 막대 대부분이 대각선 "
                "아래에 있습니다: 지나치게 확신합니다. 온도 조정은 모든 점수를 한 수 T로 나누고, T는 검증 데이터에서 "
                "최대가능도(평균 NLL이 가장 작은 곳)로 맞춥니다. 지금 분류기의 T는 {cT}입니다.",
        "task": "분류기의 T를 검증 NLL이 가장 작은 곳, 약 2.36으로 옮겨 보세요.",
        "hint": "“검증 데이터로 T 맞추기”를 누르거나, “분류기의 온도 T”를 점선 곡선의 바닥으로 옮기세요.",
        "done": "틈이 줄고 ECE가 떨어지지만 정확도는 그대로입니다: T로 나누어도 가장 큰 점수는 바뀌지 않습니다.",
        "missing": ["분류기를 보려면 “해 보기:”의 “실제 분류기 보정하기”를 여세요.",
                    "T가 맞춘 값보다 작습니다: T를 올리면 검증 NLL이 더 내려갑니다.",
                    "T가 맞춘 값을 지났습니다: 검증 NLL이 다시 올라갑니다."],
        "predict": "분류기의 T를 올리면 정확도는…",
        "choices": ["오릅니다", "그대로입니다", "내려갑니다"],
    },
    "decoding": {
        "title": "디코딩: T, 그다음 top-k, top-p, min-p",
        "text": "언어 모델은 다음 토큰을 어휘 전체에 대한 소프트맥스에서 뽑습니다. 여기서는 실제 어휘의 "
                "ln(빈도)가 점수입니다(회색): 문맥이 없는 모델입니다. 디코딩은 점수를 T로 나눈 뒤 꼬리를 "
                "자릅니다. 허깅 페이스의 순서대로, top-k는 확률이 가장 큰 k개 단어를, top-p는 확률의 합이 p에 "
                "이르는 가장 적은 단어를, min-p는 p ≥ min-p · max p인 단어를 남기고, 남은 것을 다시 "
                "정규화합니다(파랑). 지금 T = {T}, top-p = {topp}입니다.",
        "task": "top-p를 켠 채로 T를 0.6 아래로 내려, “남긴 것”이 줄어드는 것을 보세요.",
        "hint": "온도 슬라이더를 왼쪽으로 옮기세요. “Top-p”는 어휘 선택 옆에 있습니다.",
        "done": "T가 낮을수록 확률이 몇몇 단어에 몰리므로, 같은 top-p가 남기는 단어가 훨씬 적어집니다: "
                "T가 먼저, 거르기는 그다음입니다.",
        "missing": ["어휘를 보려면 “해 보기:”의 “언어 모델로 가는 길”을 여세요.", "",
                    "Top-p가 꺼졌습니다(1): 다시 1보다 작게 하세요."],
        "predict": "top-p = 0.9에서 T가 1에서 0.5로 내려가면 남는 단어는…",
        "choices": ["많아집니다", "적어집니다", "그대로입니다"],
    },
    "attention": {
        "title": "어텐션은 소프트맥스이고, ALiBi는 곱하는 수 e<sup>−m·d</sup>입니다",
        "text": "어텐션은 쿼리 앞의 토큰들에 그 점수의 소프트맥스로 가중치를 줍니다. 여기서는 여섯 부류가 토큰이고 "
                "부류의 점수가 곧 토큰의 점수입니다. 처음에는 모두 같아서 무엇도 그들을 가르지 않습니다. ALiBi는 d "
                "토큰 앞의 점수에 −m·d를 더하고, 소프트맥스는 이것을 곱하는 수 e<sup>−m·d</sup>로 바꿉니다: 헤드 h의 "
                "기울기는 m = 2<sup>−h</sup>(헤드 여덟 개 중)입니다. 지금 마지막 토큰이 첫 토큰에 주는 가중치는 "
                "자신에게 주는 것의 {alibi_far}입니다.",
        "task": "마지막 토큰이 첫 토큰에 주는 가중치가 자신에게 주는 것의 10분의 1보다 작아지는 ALiBi 헤드를 "
                "고르세요.",
        "hint": "“ALiBi 헤드”는 어텐션 그림 위에 있습니다. 기울기 m이 클수록 거리 d = 5에서 가중치가 빨리 "
                "줄어듭니다.",
        "done": "e<sup>−5/2</sup> ≈ 0.08: 멀리 있을수록 가중치가 작고, 거리 한 칸마다 같은 수를 곱합니다.",
        "missing": ["어텐션 그림을 보려면 “해 보기:”의 “언어 모델로 가는 길”을 여세요.", ""],
        "predict": "헤드 1 (m = 1/2): 마지막 토큰이 바로 앞 토큰에 주는 가중치는 자신에게 주는 것의…",
        "choices": ["e<sup>−1/2</sup> ≈ 0.61배", "1/2배", "같습니다"],
    },
    "router": {
        "title": "라우터는 토큰마다 전문가 k개를 고릅니다",
        "text": "전문가 혼합 모델은 토큰마다 모든 전문가에 점수를 매기고, 가장 큰 점수 k개만 남겨 그 k개에 대한 "
                "소프트맥스로 출력에 가중치를 줍니다. 여기서는 부류가 전문가이고 그 점수가 라우터의 점수이며, "
                "k = {rk}입니다. 지금 뽑힌 전문가: {routed}.",
        "task": "k는 2 그대로 두고, 라우터가 토큰을 {name2}에게 보내게 만들어 보세요.",
        "hint": "위쪽 점수 그림에서 {name2} 점을 {name1} 점보다 위로 끌거나, {name2} 점수를 더 크게 입력하세요.",
        "done": "언제나 전문가 k개가 일합니다: {name2}이(가) {name1} 자리를 차지했고, 두 가중치의 합은 다시 "
                "1입니다.",
        "missing": ["라우터를 보려면 “해 보기:”의 “언어 모델로 가는 길”을 여세요.", "",
                    "k가 바뀌었습니다: 라우터의 k를 다시 2로 하세요."],
        "predict": "k = 2. {name2} 점수가 {name1} 점수를 넘으면 전문가 몇 개가 일할까요?",
        "choices": ["2개: {name2}이(가) {name1}을(를) 대신합니다", "3개: {name2}이(가) 함께합니다",
                    "1개: {name0}만"],
    },
    "start": {
        "title": "아무것도 모르는 모델은 ln K에서 시작합니다",
        "text": "학습 전의 모델은 어느 부류도 더 좋아할 까닭이 없습니다: 점수가 같으면 p = 1/K이고 손실은 ln K, "
                "여기서는 {ln_k}입니다. 언어 모델이라면 어휘 크기 V의 ln V로, GPT-2의 토큰 50,257개에서는 "
                "10.82입니다. 모든 모델은 이 근처에서 시작해야 하고, 첫 손실이 훨씬 크면 무언가 잘못된 "
                "것입니다. 지금 손실은 {loss}입니다.",
        "task": "모든 점수를 같게 만들어 보세요: 손실이 ln K가 됩니다.",
        "hint": "시나리오 “아무것도 모름: 같은 점수”를 고르거나, 모든 점수 칸에 같은 값을 입력하세요.",
        "done": "ln K가 기준선입니다: 학습이란 손실을 그 아래로 낮추는 것입니다. 길을 모두 걸었습니다. "
                "“따라 배우기”를 끄면 자유롭게 "
                "놀 수 있습니다.",
    },
}

TOUR_ES = {
    "scores": {
        "title": "Las puntuaciones se vuelven probabilidades",
        "text": "Cada clase tiene una puntuación z, su logit. La función softmax convierte las puntuaciones en "
                "probabilidades: p<sub>k</sub> = e<sup>z<sub>k</sub>/T</sup> / Σ<sub>j</sub> "
                "e<sup>z<sub>j</sub>/T</sup>. Cada p está entre 0 y 1, y todas juntas suman 1. Ahora {name0} "
                "tiene p = {p0} y {name1} tiene p = {p1}.",
        "task": "Haz que la probabilidad de {name1} supere la de {name0} sin mover {name0}.",
        "hint": "Arrastra el punto de {name1} por encima del de {name0}, o escribe un logit mayor para {name1} bajo "
                "las figuras.",
        "done": "Deciden el orden y las distancias entre puntuaciones: la puntuación mayor tiene la probabilidad "
                "mayor.",
        "missing": ["", "{name0} pasó de {z0_start} a {z0}: devuélvelo a su sitio o pulsa «Volver a los logits "
                        "iniciales»."],
    },
    "shift": {
        "title": "Solo importan las diferencias",
        "text": "Sumar el mismo número c a todas las puntuaciones no cambia nada: e<sup>(z<sub>k</sub> + c)/T</sup> = "
                "e<sup>c/T</sup>·e<sup>z<sub>k</sub>/T</sup>, y e<sup>c/T</sup> se cancela entre el numerador y el "
                "denominador. La puntuación de {name0} es {z0} y su probabilidad, p = {p0}.",
        "task": "Pulsa «Sumar 1 a todos los logits» tres veces: los puntos suben y las barras se quedan igual.",
        "hint": "El botón está bajo las figuras. Mira las barras mientras suben los puntos.",
        "done": "Las probabilidades no se movieron: softmax solo ve las diferencias entre puntuaciones.",
        "predict": "Si todas las puntuaciones suben 1, las barras…",
        "choices": ["subirán", "se quedarán como están", "bajarán"],
    },
    "naive": {
        "title": "Por qué el código resta la puntuación más alta",
        "text": "Calculada tal como se escribe, softmax toma e<sup>z/T</sup> de cada puntuación, y float64 guarda "
                "números hasta unos e<sup>709.78</sup>. Aquí el mayor z/T es {zmax}: {naive_now}. Las figuras son "
                "exactas: restan primero la puntuación más alta, lo que no cambia nada (el paso anterior) y deja "
                "todos los exponentes en 0 o por debajo.",
        "task": "Sin cambiar T, haz que la softmax ingenua dé números: pulsa «Restar el logit más alto» y compara "
                "las columnas de la tabla.",
        "hint": "El botón está junto a «Sumar 1 a todos los logits». Subir T también acabaría con el "
                "desbordamiento, pero cambia el modelo: las probabilidades cambiarían con él.",
        "done": "Las mismas probabilidades y ningún desbordamiento: las bibliotecas calculan "
                "e<sup>(z − max z)/T</sup>, y la columna ingenua coincide ya con las demás.",
        "missing": ["Abre la tabla de la softmax ingenua («Romper la softmax ingenua») para ver el desbordamiento.",
                    "", "T cambió: pulsa «Repetir paso». El arreglo debe dejar el modelo como está."],
    },
    "temperature": {
        "title": "Temperatura: de argmax a la distribución uniforme",
        "text": "Dividir las puntuaciones entre T agudiza o aplana las probabilidades. Cuando T → 0, la puntuación "
                "más alta se lo lleva todo (argmax); cuando T crece, cada clase tiende a 1/K. Ahora T = {T}, y la "
                "entropía, cuánto se reparte p, es {entropy_bits} bits; como mucho vale log<sub>2</sub> K.",
        "task": "Encuentra una T con la que la entropía supere 1.5 bits.",
        "hint": "Cuanto más alta la temperatura, más planas las barras: mueve el control de la temperatura hacia "
                "la derecha.",
        "done": "Cerca de la distribución uniforme la entropía se acerca a log<sub>2</sub> 3 ≈ 1.585 bits, lo máximo "
                "que caben en tres clases.",
        "predict": "Cuando T tiende a 0, las probabilidades tienden a…",
        "choices": ["todo en la puntuación más alta (argmax)", "1/K cada una (uniforme)", "quedarse como están"],
    },
    "lse": {
        "title": "log-sum-exp, un máximo suave",
        "text": "El denominador de softmax, en forma logarítmica, es log-sum-exp: LSE(z/T) = ln Σ<sub>k</sub> "
                "e<sup>z<sub>k</sub>/T</sup>. Está entre el mayor z/T y ese valor más ln K: ahora {zmax} ≤ {lse} "
                "≤ {zmax} + {lnK} (ln K es un número sin unidades, como z/T). El logaritmo de una probabilidad es "
                "entonces ln p<sub>k</sub> = z<sub>k</sub>/T − LSE(z/T).",
        "task": "Acerca log-sum-exp a menos de 0.05 del mayor z/T.",
        "hint": "Baja la temperatura, o arrastra la puntuación más alta más lejos de las demás.",
        "done": "Cuando una puntuación domina, log-sum-exp es el propio máximo; cuando las puntuaciones están "
                "cerca, queda hasta ln K por encima.",
    },
    "sigmoid": {
        "title": "Dos clases: la sigmoide",
        "text": "Con dos clases, softmax es la sigmoide de la diferencia: p<sub>1</sub> = σ((z<sub>1</sub> − "
                "z<sub>2</sub>)/T). Con puntuaciones iguales da 0.5; ahora {name0} tiene p = {p0}.",
        "task": "Lleva la probabilidad de {name0} a unos 0.88: entre 0.85 y 0.91.",
        "hint": "σ(2) ≈ 0.881: pon la puntuación de {name0} 2 por encima de la de {name1}. Escribe 2 en la primera "
                "casilla de logit, o arrastra.",
        "done": "La regresión logística es la softmax de dos clases: una diferencia de puntuaciones, una sigmoide.",
        "predict": "Con la puntuación de {name0} 2 por encima de la de {name1}, la probabilidad de {name0} será "
                   "de unos…",
        "choices": ["0.67", "0.88", "0.99"],
    },
    "loss": {
        "title": "La pérdida: −ln p de la clase verdadera",
        "text": "Con un objetivo one-hot, la entropía cruzada es L = −ln p<sub>y</sub>: la sorpresa ante la clase "
                "verdadera. La clase verdadera, {name_y}, tiene ahora p = {p_y}, y la pérdida es {loss}. Un modelo "
                "seguro de la respuesta correcta no paga casi nada; uno seguro de una respuesta equivocada paga "
                "mucho.",
        "task": "Haz que la pérdida baje de 0.1 nats.",
        "hint": "Arrastra hacia arriba el punto de la clase verdadera, o los demás hacia abajo: p<sub>y</sub> tiene "
                "que superar e<sup>−0.1</sup> ≈ 0.905.",
        "done": "Entrenar es hacer pequeño este número sobre muchos ejemplos: dicho de otro modo, máxima "
                "verosimilitud.",
        "predict": "Si la probabilidad de la clase verdadera se reduce a la mitad, la pérdida…",
        "choices": ["se reduce a la mitad", "sube ln 2 ≈ 0.693 nats", "se duplica"],
    },
    "information": {
        "title": "Entropía cruzada = entropía + KL, en bits o nats",
        "text": "La pérdida se divide en un suelo y una distancia: H(y′, p) = H(y′) + KL(y′‖p). Con un objetivo "
                "one-hot el suelo H(y′) es 0, y toda la pérdida es la divergencia KL. La pérdida es ahora {loss}; "
                "un bit son ln 2 ≈ 0.693 nats.",
        "task": "Cambia las unidades a bits: la misma pérdida, dividida entre ln 2.",
        "hint": "Pulsa «bits», junto al control del suavizado de etiquetas.",
        "done": "Los bits cuentan preguntas de sí o no; los nats son lo que da ln: la misma información en otras "
                "unidades.",
    },
    "gradient": {
        "title": "El gradiente p − y, y las flechas",
        "text": "La pendiente de la pérdida respecto a cada puntuación es ∂L/∂z<sub>k</sub> = (p<sub>k</sub> − "
                "y′<sub>k</sub>)/T. Las flechas verdes muestran −∂L/∂z, hacia donde un paso de gradiente "
                "mueve cada puntuación: la clase verdadera sube (1 − p<sub>y</sub>)/T y cada una de las demás baja "
                "p<sub>k</sub>/T. La flecha de la clase verdadera vale ahora {g_y}. Seguro y en lo cierto: flechas "
                "diminutas. Seguro y equivocado: las más grandes.",
        "task": "Haz que el modelo se equivoque con seguridad: {name1} por encima de 0.9 mientras {name0} sigue "
                "siendo la clase verdadera.",
        "hint": "Sube {name1} unas cuatro unidades y mira cómo crece la flecha de {name0} hacia su máximo, 1/T.",
        "done": "Cuanto peor el error, más fuerte el empujón, hasta 1/T: la entropía cruzada aprende deprisa de los "
                "errores cometidos con seguridad.",
    },
    "runaway": {
        "title": "La pérdida nunca llega a 0",
        "text": "Un paso de gradiente mueve las puntuaciones siguiendo las flechas: z ← z − η·(p − y′)/T. La "
                "pérdida baja, pero p<sub>y</sub> = 1 exigiría puntuaciones infinitamente separadas, así que siguen "
                "alejándose mientras la pérdida se acerca poco a poco a 0. La pérdida es ahora {loss}.",
        "task": "Da pasos de gradiente hasta que la pérdida baje de 0.02.",
        "hint": "Pulsa «Dar un paso» una y otra vez, o «Reproducir» y luego «Pausar».",
        "done": "Cada paso gana menos: con un objetivo one-hot las puntuaciones crecen sin fin. El suavizado de "
                "etiquetas, a continuación, les da un sitio donde pararse.",
    },
    "smoothing": {
        "title": "Suavizado de etiquetas: un suelo y una distancia óptima",
        "text": "Con ε > 0 el objetivo es y′ = (1 − ε)·onehot(y) + ε/K: incluso la respuesta perfecta conserva algo "
                "de duda. La pérdida tiene entonces un suelo H(y′) = {floor} que no puede cruzar, y lo alcanza a una "
                "distancia finita óptima entre la puntuación verdadera y las demás. La pérdida es ahora {loss}.",
        "task": "Da pasos hasta que la pérdida quede a menos de 0.001 de su suelo.",
        "hint": "Reproduce los pasos: los puntos se detienen en la distancia óptima en lugar de escaparse.",
        "done": "Las puntuaciones se asientan: el suavizado impide que un modelo haga crecer sus logits sin fin.",
    },
    "sampling": {
        "title": "El muestreo dibuja las barras",
        "text": "De un modelo que da p también se puede muestrear: el truco Gumbel-max extrae la clase k con "
                "probabilidad p<sub>k</sub> (suma ruido de Gumbel a z/T y toma el mayor). Es el modelo de elección "
                "de McFadden (1974): quien suma ruido de Gumbel a cada puntuación elige según softmax, el nombre que "
                "le dio Bridle en 1990. Con N = {n} extracciones las frecuencias oscilan en torno a p; con más "
                "extracciones se acercan a las barras.",
        "task": "Extrae al menos 10,000 muestras.",
        "hint": "Escribe 10000 en «Muestras N».",
        "done": "Las frecuencias se quedan dentro de sus bigotes de ±2σ, que se encogen como 1/√N.",
    },
    "calibration": {
        "title": "Estar seguro al 90 % no es acertar el 90 %",
        "text": "Un clasificador real de dígitos manuscritos (los dígitos de UCI, apartados de su entrenamiento) "
                "puntúa diez clases; abajo se ve lo seguro que está frente a lo a menudo que acierta. Con T = 1 la "
                "mayoría de sus barras quedan bajo la diagonal: es demasiado confiado. El escalado de temperatura "
                "divide todos sus logits entre un solo número T, ajustado en los dígitos de validación por máxima "
                "verosimilitud (el menor NLL medio). La T del clasificador es ahora {cT}.",
        "task": "Lleva la T del clasificador a donde el NLL de validación es mínimo, unos 2.36.",
        "hint": "Pulsa «Ajustar T en validación», o mueve «Temperatura T del clasificador» hasta el fondo de la "
                "curva discontinua.",
        "done": "Las diferencias se reducen y el ECE baja, mientras la exactitud sigue igual: dividir entre T nunca "
                "cambia qué logit es el mayor.",
        "missing": ["Abre «Calibrar un clasificador real» (en «Prueba:») para ver el clasificador.",
                    "T está por debajo del ajuste: el NLL de validación aún baja al subir T.",
                    "T ha pasado el ajuste: el NLL de validación vuelve a subir."],
        "predict": "Sube la T del clasificador: su exactitud…",
        "choices": ["subirá", "seguirá igual", "bajará"],
    },
    "decoding": {
        "title": "Decodificación: T, y luego top-k, top-p y min-p",
        "text": "Un modelo de lenguaje extrae su siguiente token de una softmax sobre todo su vocabulario. Aquí los "
                "logits son el ln(frecuencia) de un vocabulario real (gris): un modelo sin contexto. La "
                "decodificación los divide entre T y luego corta la cola, en el orden de Hugging Face: top-k deja "
                "las k palabras más probables, top-p las menos posibles cuya masa llega a p, min-p las que tienen "
                "p ≥ min-p · max p; lo que queda se renormaliza (azul). Ahora T = {T} y top-p = {topp}.",
        "task": "Deja top-p activo y baja T por debajo de 0.6: mira cómo baja «Quedan».",
        "hint": "Mueve a la izquierda el control de la temperatura; «Top-p» está junto al vocabulario.",
        "done": "Una T más baja concentra la masa en menos palabras, así que el mismo núcleo guarda muchas menos: T "
                "actúa primero y los filtros cortan lo que deja.",
        "missing": ["Abre «Hacia los modelos de lenguaje» (en «Prueba:») para ver el vocabulario.", "",
                    "Top-p está desactivado (1): vuelve a ponerlo por debajo de 1."],
        "predict": "Con top-p = 0.9, T baja de 1 a 0.5. Las palabras que quedan serán…",
        "choices": ["más", "menos", "las mismas"],
    },
    "attention": {
        "title": "La atención es una softmax, y ALiBi un factor e<sup>−m·d</sup>",
        "text": "La atención pondera los tokens anteriores a una consulta con una softmax sobre sus puntuaciones. "
                "Aquí las clases son seis tokens cuyas puntuaciones son los logits, todos iguales al principio: nada "
                "los distingue. ALiBi suma −m·d a la puntuación de un token d posiciones atrás, y softmax lo "
                "convierte en un factor e<sup>−m·d</sup>: la cabeza h tiene la pendiente m = 2<sup>−h</sup> (de ocho "
                "cabezas). El peso del último token sobre el primero es ahora {alibi_far} del que se da a sí mismo.",
        "task": "Elige la cabeza de ALiBi con la que el primer token recibe menos de una décima parte de lo que el "
                "último token se da a sí mismo.",
        "hint": "«Cabeza de ALiBi» está encima del mapa de atención; cuanto más empinada la pendiente m, más "
                "deprisa caen los pesos con la distancia d = 5.",
        "done": "e<sup>−5/2</sup> ≈ 0.08: cuanto más atrás, menor el peso, por el mismo factor en cada paso de "
                "distancia.",
        "missing": ["Abre «Hacia los modelos de lenguaje» (en «Prueba:») para ver el mapa de atención.", ""],
        "predict": "Cabeza 1 (m = 1/2): el peso del último token sobre el token justo anterior, frente a su peso "
                   "sobre sí mismo, será…",
        "choices": ["e<sup>−1/2</sup> ≈ 0.61 veces", "1/2 veces", "el mismo"],
    },
    "router": {
        "title": "Un enrutador envía cada token a k expertos",
        "text": "Una mezcla de expertos puntúa cada experto para un token, se queda con las k puntuaciones más "
                "altas y pondera sus salidas con una softmax solo sobre esas k. Aquí las clases son los expertos y "
                "sus logits las puntuaciones del enrutador, con k = {rk}; elige {routed}.",
        "task": "Haz que el enrutador envíe el token a {name2}, con k todavía en 2.",
        "hint": "Arrastra el punto de {name2} por encima del de {name1} en la figura de logits de arriba, o escribe "
                "un logit mayor para {name2}.",
        "done": "Se ejecutan exactamente k expertos: {name2} ocupó el lugar de {name1}, y los dos pesos vuelven a "
                "sumar 1.",
        "missing": ["Abre «Hacia los modelos de lenguaje» (en «Prueba:») para ver el enrutador.", "",
                    "k cambió: vuelve a poner la k del enrutador en 2."],
        "predict": "k = 2. Cuando la puntuación de {name2} supera la de {name1}, ¿cuántos expertos se ejecutan?",
        "choices": ["2: {name2} sustituye a {name1}", "3: {name2} se suma a ellos", "1: solo {name0}"],
    },
    "start": {
        "title": "Un modelo que no sabe nada empieza en ln K",
        "text": "Antes de entrenar, un modelo no tiene motivo para preferir una clase: puntuaciones iguales dan "
                "p = 1/K y la pérdida ln K, aquí {ln_k}; para un modelo de lenguaje es ln V sobre su vocabulario, "
                "10.82 para los 50,257 tokens de GPT-2. Todo modelo debería empezar cerca de ahí; una primera "
                "pérdida mucho mayor indica que algo falla. La pérdida es ahora {loss}.",
        "task": "Iguala todas las puntuaciones: la pérdida pasa a ser ln K.",
        "hint": "Elige el escenario «No sabe nada: logits iguales», o escribe el mismo valor en cada casilla de "
                "logit.",
        "done": "ln K es la referencia: aprender es tener una pérdida por debajo. Ese es todo el recorrido; "
                "desactiva «Recorrido guiado» para explorar libremente.",
    },
}


TEXT = {
    "en": {
        "title": "Softmax and cross-entropy, by hand",
        "subtitle": "Drag a point up or down, or type a logit below. Every number follows in the same frame.",
        "locked_note": "This link fixes {keys}.",
        "lock_names": {"z": "the logits", "T": "the temperature", "y": "the true class", "eps": "ε",
                       "lr": "the learning rate", "units": "the units", "names": "the class names",
                       "lang": "the language", "theme": "the theme", "lecture": "lecture mode",
                       "open": "the open sections", "n": "the number of draws", "seed": "the seed",
                       "sample": "the draws", "jacobian": "the Jacobian", "naive": "the naive softmax",
                       "dtype": "the number type", "learn": "the gradient steps",
                       "logloss": "the loss figure's scale", "step": "the step of the path",
                       "tour": "the guided path", "calib": "the calibration view",
                       "cT": "the classifier's temperature", "bins": "the bins",
                       "lm": "the language-model view", "vlang": "the vocabulary", "topk": "top-k",
                       "topp": "top-p", "minp": "min-p", "head": "the ALiBi head", "rk": "the router's k",
                       "fn": "the function figure", "teach": "the instructor's section"},
        "class_names": ["cat", "dog", "bird", "fish", "horse", "frog", "deer", "ship", "truck", "plane"],
        "logit_title": "Logits z (drag the points)",
        "logit_hint": "teal arrows: −∂L/∂z = (y′ − p)/T, drawn at 2× length",
        "logit_axis": "logit z",
        "prob_title": "Probabilities p = softmax(z / T)",
        "prob_hint": "outline: true class · orange: target y′",
        "prob_axis": "probability p",
        "class_axis": "class",
        "temperature": "Temperature T (log scale)",
        "true_class": "True class y",
        "add_one": "Add 1 to every logit",
        "subtract_max": "Subtract the largest logit",
        "reset": "Back to the initial logits",
        "reset_all": "Reset everything",
        "add_class": "Add a class",
        "remove_class": "Remove the last class",
        "class_names_box": "Class names, separated by commas",
        "row_class": "class {i}",
        "row_rest": "rest ({n})",
        "preset": "Scenario",
        "preset_none": "Choose a scenario…",
        "preset_seed": "Cat, dog, bird",
        "preset_two": "Two classes: the sigmoid",
        "preset_ten": "Ten classes",
        "preset_uniform": "Knows nothing: equal logits",
        "label_smoothing": "Label smoothing ε",
        "learning_rate": "Learning rate η (mark: 4T²)",
        "lab_title": "Try:",
        "learn": "Learn by steps",
        "log_loss": "Log scale",
        "step": "Take a step",
        "play": "Play",
        "pause": "Pause",
        "sample": "Draw N samples",
        "num_samples": "Draws N",
        "seed": "Seed",
        "jacobian": "Show the Jacobian",
        "naive": "Break the naive softmax",
        "naive_dtype": "Number type",
        "float64": "float64",
        "float32": "float32",
        "float16": "float16",
        "loss_title": "Loss after each gradient step",
        "loss_hint": "L after each gradient step, at the learning rate η you set",
        "loss_step": "step",
        "loss_x": "step",
        "update_label": "One step, z ← z − η·(p − y′)/T:",
        "update_stable": "below η = 4T² = {limit} a step never raises the loss; from 2T² on it can overshoot the "
                         "optimum and swing around it; with a one-hot target the loss falls at any η",
        "update_sum": "The sum of the logits stays:",
        "jacobian_title": "Jacobian ∂pᵢ/∂zⱼ",
        "jacobian_hint": "= pᵢ(δᵢⱼ − pⱼ)/T · red +, blue −",
        "jacobian_rows": "Largest row sum (0: adding 1 to every logit changes no p):",
        "jacobian_chain": "Chain rule (∂L/∂p)ᵀJ:",
        "jacobian_arrows": "∂L/∂z = (p − y′)/T, the opposite of the arrows:",
        "race_title": "The first draws: z<sub>k</sub>/T + g<sub>k</sub>, the largest wins (bold)",
        "race_draw": "draw",
        "race_counts": "Wins in all N = {n} draws: {counts} (the ◆ on the bars, with ±2σ whiskers)",
        "draws_hint": "◆: share of the N draws, ±2σ",
        "naive_title": "softmax(z/T) three ways in {dtype}",
        "naive_col_naive": "naive e<sup>u</sup>/Σe<sup>u</sup>",
        "naive_col_shifted": "max subtracted",
        "naive_col_log": "exp(log-softmax)",
        "naive_over": "The largest z/T is {top}, above ln(max {dtype}) = {at}: e<sup>z/T</sup> overflows, and "
                      "the naive way divides inf by inf.",
        "naive_under": "e<sup>z/T</sup> overflows {dtype} past z/T = ln(max) = {at}; the largest z/T is {top}.",
        "naive_sum": "The largest z/T is {top}, below ln(max {dtype}) = {at}: no e<sup>z/T</sup> overflows, but "
                     "their sum does, and the naive way divides each by inf and shows 0.",
        "naive_tiny": "p below the smallest {dtype}, so 0 in every way above; the bars and the table of classes write "
                      "it exactly, from log p: {values}.",
        "naive_loss_log_p": "Loss as −ln(softmax):",
        "naive_loss_lse": "as −(z<sub>y</sub>/T − LSE):",
        "calibration": "Calibrate a real classifier",
        "calibration_T": "The classifier's temperature T",
        "fit_T": "Fit T on validation",
        "bins": "Bins M",
        "bins_options": {"10": "10", "15": "15", "20": "20"},
        "reliability_title": "Reliability on {n} test digits",
        "reliability_hint": "faded: a bin of fewer than 20 digits",
        "legend_accuracy": "accuracy",
        "legend_over": "confidence above accuracy",
        "legend_under": "accuracy above confidence",
        "mce_few": "from a bin of only {n} digits: a noisy maximum",
        "reliability_x": "confidence (the largest p)",
        "reliability_y": "accuracy",
        "counts_title": "Test digits per bin",
        "counts_hint": "the same bins as above",
        "counts_y": "count (log)",
        "nll_title": "Mean NLL against T",
        "nll_hint": "blue: test · dashes: validation · dots: Newton's steps",
        "nll_x": "temperature T (log scale)",
        "nll_y": "mean NLL ({unit})",
        "ece_label": "Expected calibration error ECE =",
        "mce_label": "Maximum calibration error MCE =",
        "bins_aside": "over {M} bins",
        "nll_label": "Mean NLL on the test digits =",
        "accuracy_label": "Accuracy =",
        "accuracy_aside": "{right} of {n} right, the same at every T",
        "fit_none": "“Fit T on validation” runs Newton's method on β = 1/T over the {n} validation digits.",
        "fit_done": "Newton's method on β = 1/T from T = 1: {path}. Validation NLL {before} → {after}.",
        "language_model": "On to language models",
        "vocab_lang": "Vocabulary",
        "vocab_lang_options": {"en": "50,000 English words", "ko": "29,988 Korean morphemes"},
        "top_k": "Top-k (0: off)",
        "top_p": "Top-p (1: off)",
        "min_p": "Min-p (0: off)",
        "alibi_head": "ALiBi head",
        "alibi_head_options": {"0": "none", **{str(h): f"h = {h}, m = 1/{2 ** h}" for h in range(1, 9)}},
        "router_k": "Router's k",
        "vocab_title": "Unigram (no context): p = softmax(ln f / T)",
        "vocab_unit": {"en": "words", "ko": "morphemes"},
        "vocab_hint": "{V} {unit} · grey: before the filters · blue: kept, renormalised",
        "vocab_x": "rank (log scale)",
        "vocab_y": "p (log scale)",
        "attention_title": "Causal attention, the classes as tokens",
        "attention_hint": "row i attends to keys j ≤ i: softmaxⱼ(zⱼ/T − m(i − j))",
        "attention_x": "key j",
        "attention_y": "query i",
        "decay_title": "ALiBi's factor against distance",
        "decay_hint": "bars: the last token's weight d back ÷ its weight on itself · line: e^(−m·d)",
        "decay_x": "distance d (tokens back)",
        "decay_y": "relative weight",
        "router_title": "A router over the classes as experts",
        "router_hint": "the top {k} experts' weights, summing to 1",
        "router_y": "weight",
        "distill_title": "Distillation's gradient against T",
        "distill_hint": "orange: ‖∂KL/∂z‖ · blue: ‖∂KL/∂z‖·T² · dot: your T",
        "distill_x": "temperature T (log scale)",
        "distill_y": "gradient norm (log scale)",
        "decoding_label": "Kept:",
        "decoding_kept": "{kept} of {V} {unit}",
        "decoding_mass": "their mass before renormalising {mass}",
        "decoding_top": "The most probable, renormalised:",
        "uniform_label": "A model that knows nothing scores ln V =",
        "uniform_aside": "ln 50,257 = {gpt2} for GPT-2's vocabulary",
        "alibi_none": "No ALiBi bias: each query's weights are softmax<sub>j</sub>(z<sub>j</sub>/T) over the keys it "
                      "can see.",
        "alibi_identity": "ALiBi adds −m(i − j), m = {m}. Within a row −m·i is the same for every key, so the "
                          "weights are also softmax<sub>j</sub>(z<sub>j</sub>/T + m·j): the largest difference "
                          "between the two on "
                          "this page is {diff}.",
        "router_orders": "Mask then softmax, or softmax then renormalise: the two orders' weights differ by at "
                         "most {diff}.",
        "distill_limit": "Teacher v = ({v}), student z = your logits. ‖∇‖·T² at T = {at}: {values}; it "
                         "tends to ‖(z − z̄) − (v − v̄)‖/K = {limit}, which is why distillation scales its loss "
                         "by T².",
        "lm_text": "<p>A language model ends in a softmax over its whole vocabulary. Here the vocabulary is real: "
                   "the most frequent words of wordfreq (CC BY-SA 4.0), or in Korean its morphemes (이, 는, 을, …: "
                   "wordfreq splits Korean text into them), each one's logit the log of its frequency. It is a "
                   "unigram model, with no context: at T = 1 each is drawn as often as people write it, whatever "
                   "came before.</p><p>Decoding "
                   "changes which words may come next: top-k keeps the k most probable, top-p the fewest whose "
                   "mass reaches p, min-p those at least min-p times as probable as the top word; each "
                   "renormalises what it keeps. Attention, a mixture-of-experts router and distillation are "
                   "softmaxes too, drawn on the logits you drag.</p>",
        "calibration_text": "<p><b>Calibration</b> asks whether “90 % sure” is right 90 % of the time. This "
                            "classifier, a logistic regression trained on only 200 handwritten 8×8 digits, is "
                            "right on 91 % of the test digits but too sure of itself at T = 1: its bars sit under "
                            "the diagonal.</p><p>Dividing every logit by one T &gt; 0 keeps each digit's largest "
                            "logit the largest, so the accuracy cannot change; T only softens or sharpens the "
                            "confidence. Fitting T on validation digits (the NLL is convex in β = 1/T) and "
                            "measuring on test digits is temperature scaling (Guo et al., 2017), which took a "
                            "ResNet-110 on CIFAR-100 from an ECE of 16.53 % to 1.26 %.</p>",
        "units": "Units",
        "nats": "nats",
        "bits": "bits",
        "copy_link": "Copy link",
        "download_png": "Save figures (PNG)",
        "download_svg": "Save figures (SVG)",
        "lang": "Language",
        "lang_options": {"en": "English", "ko": "Korean", "es": "Spanish"},
        "theme": "Dark theme",
        "lecture": "Lecture mode",
        "teach": "Instructor",
        "teach_intro": "Start from the lesson as it is now and choose what a learner may not change or see, the "
                       "step, the language and the colours: the link, the export command and the iframe below "
                       "open exactly that lesson.",
        "teach_step": "Step",
        "teach_lang": "Language",
        "teach_theme": "Colours",
        "teach_themes": {"light": "light colours", "dark": "dark colours",
                         "auto": "the reader's light or dark colours", "projector": "projector colours"},
        "teach_lecture_on": "lecture mode",
        "teach_control": "Control",
        "teach_lock": "Lock",
        "teach_hide": "Hide",
        "teach_lock_one": "Lock {key}",
        "teach_hide_one": "Hide {key}",
        "teach_link": "Link",
        "teach_command": "Export command",
        "teach_iframe": "iframe for a course page",
        "teach_copy": "Copy",
        "teach_copied": "Copied",
        "teach_says": "Opens at step {k} of {n}, “{title}”, in {lang}, {look}.",
        "teach_says_locked": "A learner cannot change {keys}.",
        "teach_says_hidden": "Not shown: {keys}.",
        "teach_says_free": "A learner can change everything.",
        "teach_frame_title": "Interactive softmax and cross-entropy explainer: drag the logits",
        "inputs_title": "Logits without dragging: ↑ ↓ change by 0.1, Shift + ↑ ↓ by 1",
        "input_label": "logit z of {name}",
        "col_class": "class",
        "col_prob": "p",
        "col_target": "y′",
        "col_arrow": "−∂L/∂z",
        "loss": "Loss L = −ln p<sub>y</sub>",
        "loss_smoothed": "Loss L = H(y′, p)",
        "start": "a model that knows nothing starts at ln K = {value}",
        "entropy": "Entropy H(p)",
        "entropy_max": "max log K",
        "lse": "log-sum-exp LSE(z/T)",
        "arrow_sum": "Sum of the arrows",
        "formula": "softmax",
        "py": "True class: p<sub>y</sub>",
        "strip_title": "Softmax in three moves: the score, its exponential (bar: its share of the largest), and "
                       "that divided by their sum, p (bar: its share of 1)",
        "sections_title": "More readouts:",
        "sections_options": {"table": "Table", "info": "Information", "lse": "log-sum-exp"},
        "function": "Figure of a function",
        "function_options": {"none": "none", "nll": "the loss −ln p", "sigmoid": "p against its margin: σ",
                             "sweep": "p and entropy against T"},
        "fn_nll_title": "The loss of the true class: −ln p",
        "fn_nll_hint": "curve: −ln p · dot: the true class's p now",
        "fn_nll_x": "p of the true class",
        "fn_nll_y": "−ln p ({unit})",
        "fn_sigmoid_title": "The true class's p is the sigmoid of its margin",
        "fn_sigmoid_hint": "m = z_y/T − LSE of the others' z/T; two classes: (z₁ − z₂)/T · dot: now",
        "fn_sigmoid_x": "margin m",
        "fn_sigmoid_y": "p = σ(m)",
        "fn_sweep_title": "Each p and the entropy against T",
        "fn_sweep_hint": "solid: each class's p · dashed: H(p) / ln K · dots: your T",
        "fn_sweep_x": "temperature T (log scale)",
        "fn_sweep_y": "p, and H(p) / ln K",
        "lse_marks_hint": "band: max z to max z + T ln K · dashes: T·LSE(z/T)",
        "floor": "Floor H(y′)",
        "floor_zero": "the loss never reaches 0 for finite logits",
        "kl": "Above the floor KL(y′‖p)",
        "perplexity": "Perplexity e<sup>L</sup>",
        "perplexity_bits": "Perplexity 2<sup>L</sup>",
        "gap": "Best gap z<sub>y</sub> − z<sub>k</sub> = T·ln((1 − ε + ε/K)/(ε/K))",
        "gap_now": "now",
        "sigmoid": "Two classes: p<sub>1</sub> = σ((z<sub>1</sub> − z<sub>2</sub>)/T)",
        "info_floor": "floor H(y′)",
        "info_kl": "KL(y′‖p)",
        "info_start": "ln K",
        "live": "{name}: p = {p}; loss {loss} {unit}",
        "caption": "T = {T} · ε = {eps} · K = {K} · true class {name}: p = {p} · loss L = {loss} {unit}",
        "at_limit": "The logits stop at ±{limit}: this explainer keeps them on the axis.",
        "clamped": "A logit stops at the edge of the axis.",
        # A row of one's own logits (static/fold.mjs): the box, and what the page says of a row it folded.
        "paste_logits": "Paste your model's logits, then Enter",
        "paste_folded": "Of your row's {size} values, the {kept} largest are classes of their own and the other "
                        "{folded} are folded into “{rest}”, whose logit is their log-sum-exp: at T = 1 they hold "
                        "p = {p} together, as in the full row.",
        "paste_shifted": "Every logit was shifted by {shift} to fit within ±{limit}; softmax does not change.",
        "paste_clamped": "{n} of them stayed below −{limit} and were raised to it (each had p below e^−100 of the "
                         "largest's).",
        "max_classes": "At most {max} classes.",
        "min_classes": "At least {min} classes.",
        "name_type": "A class name must be text.",
        "name_blank": "A class name must not be blank.",
        "name_long": "A class name has at most {name_max} characters.",
        "name_control": "A class name must not hold control characters or line breaks.",
        "name_bidi": "A class name must not hold text-direction controls.",
        "name_comma": "A class name must not hold a comma: commas separate the names.",
        "name_unknown": "A class name holds a character too new for the explainer to check.",
        "name_duplicate": "Class names must differ from each other.",
        "class_count": "Give one name per class ({K}), separated by commas.",
        "not_number": "Type a number.",
        "decimal_comma": "Use a point for decimals: 2.5, not 2,5.",
        "not_finite": "Type a finite number.",
        "logit_range": "A logit lies within ±{limit}.",
        "paste_long": "Paste at most {paste_max} characters.",
        "paste_summary": "This row is a summary: “...” stands for values that were not printed. Print it in full "
                         "(NumPy: np.set_printoptions(threshold=sys.maxsize); PyTorch: "
                         "torch.set_printoptions(profile=\"full\")).",
        "paste_format": "Paste one row of logits as PyTorch, NumPy or a list prints it: tensor([2.0, 1.0, 0.1]), "
                        "[2 1 0.1] or 2, 1, 0.1.",
        "paste_batch": "Paste one row, not a batch of rows: print x[0], for instance.",
        "paste_count": "A row of logits has at least {min} values.",
        "paste_not_finite": "Every logit must be a finite number: a model that prints nan or inf has a bug to fix "
                            "first.",
        "T_range": "T lies from {T_lo} to {T_hi}.",
        "cT_range": "The classifier's T lies from {cT_lo} to {cT_hi}.",
        "topk_range": "Top-k lies from {topk_lo} to {topk_hi} (0: off).",
        "topp_range": "Top-p lies from {topp_lo} to {topp_hi}.",
        "minp_range": "Min-p lies from {minp_lo} to {minp_hi}.",
        "rk_range": "The router's k lies from {rk_lo} to {rk_hi}.",
        "eps_range": "ε lies from {eps_lo} to {eps_hi}.",
        "lr_range": "η lies from {lr_lo} to {lr_hi}.",
        "n_range": "N lies from {n_lo} to {n_hi}.",
        "seed_range": "The seed lies from {seed_lo} to {seed_hi}.",
        "not_whole": "Type a whole number.",
        "refused": "That change was refused; the lesson is as it was.",
        "link_bad": "The link held values that could not be used ({keys}); their defaults are shown.",
        "link_copied": "Link copied: {url}",
        "link_shown": "Copy this link: {url}",
        "connection_lost": "The connection to the server is lost: every change still works here and stays in this "
                           "page.",
        "connection_back": 'The server is back: <a href="{url}">reconnect with this lesson</a>.',
        "tour": "Guided path",
        "tour_back": "Back",
        "tour_next": "Next",
        "tour_setup": "Start again",
        "tour_naive_over": "e<sup>z/T</sup> overflows, and the naive way divides infinity by infinity and shows NaN",
        "tour_naive_fine": "no e<sup>z/T</sup> overflows, and the naive way agrees with the figures",
        "tour_undo": "Undo “Start again”",
        "tour_of": "Step {k} of {n}",
        "tour_task": "Your task:",
        "tour_predict": "Predict:",
        "tour_right": "You said “{guess}”: right.",
        "tour_wrong": "You said “{guess}”; it is “{answer}”.",
        "tour_hint": "Hint",
        "tour_done": "Done:",
        "tour_live": "Step {k} of {n}: {title}",
        "tour_live_done": "Task done: {done}",
        "step_range": "The step lies from {step_lo} to {step_hi}.",
        "tour_steps": TOUR_EN,
    },
    "ko": {
        "title": "손으로 움직여 보는 소프트맥스와 교차 엔트로피",
        "subtitle": "점을 위아래로 끌거나 아래에 점수를 입력해 보세요. 모든 숫자가 같은 프레임에 따라 움직입니다.",
        "locked_note": "이 링크는 {keys}을(를) 고정합니다.",
        "lock_names": {"z": "점수", "T": "온도", "y": "정답 부류", "eps": "ε", "lr": "학습률", "units": "단위",
                       "names": "부류 이름", "lang": "언어", "theme": "테마", "lecture": "강의 모드",
                       "open": "펼친 부분", "n": "뽑는 횟수", "seed": "시드", "sample": "뽑기",
                       "jacobian": "야코비안", "naive": "그대로 계산한 소프트맥스", "dtype": "수 형식",
                       "learn": "경사 하강 걸음", "logloss": "손실 그림의 눈금", "step": "따라 배우기 단계",
                       "tour": "따라 배우기", "calib": "보정 보기", "cT": "분류기의 온도", "bins": "구간 수",
                       "lm": "언어 모델 보기", "vlang": "어휘", "topk": "top-k", "topp": "top-p", "minp": "min-p",
                       "head": "ALiBi 헤드", "rk": "라우터의 k", "fn": "함수 그림", "teach": "강사용 링크 만들기"},
        "class_names": ["고양이", "개", "새", "물고기", "말", "개구리", "사슴", "배", "트럭", "비행기"],
        "logit_title": "점수(로짓) z: 점을 끌어 보세요",
        "logit_hint": "청록 화살표: −∂L/∂z = (y′ − p)/T, 2배 길이로 그림",
        "logit_axis": "점수 z",
        "prob_title": "확률 p = softmax(z / T)",
        "prob_hint": "흰검은 테두리: 정답 부류 · 주황: 목표 y′",
        "prob_axis": "확률 p",
        "class_axis": "부류",
        "temperature": "온도 T (로그 눈금)",
        "true_class": "정답 부류 y",
        "add_one": "모든 점수에 1 더하기",
        "subtract_max": "가장 큰 점수 빼기",
        "reset": "처음 점수로 되돌리기",
        "reset_all": "모두 처음으로",
        "add_class": "부류 추가",
        "remove_class": "마지막 부류 빼기",
        "class_names_box": "부류 이름 (쉼표로 구분)",
        "row_class": "부류 {i}",
        "row_rest": "나머지 ({n})",
        "preset": "시나리오",
        "preset_none": "시나리오 고르기…",
        "preset_seed": "고양이, 개, 새",
        "preset_two": "두 부류: 시그모이드",
        "preset_ten": "열 부류",
        "preset_uniform": "아무것도 모름: 같은 점수",
        "label_smoothing": "라벨 스무딩 ε",
        "learning_rate": "학습률 η (표시: 4T²)",
        "lab_title": "해 보기:",
        "learn": "걸음으로 배우기",
        "log_loss": "로그 눈금",
        "step": "한 걸음 내딛기",
        "play": "재생",
        "pause": "멈춤",
        "sample": "N번 뽑기",
        "num_samples": "뽑는 횟수 N",
        "seed": "시드",
        "jacobian": "야코비안 보기",
        "naive": "그대로 계산한 소프트맥스 깨뜨리기",
        "naive_dtype": "수 형식",
        "float64": "float64",
        "float32": "float32",
        "float16": "float16",
        "loss_title": "경사 하강 걸음마다의 손실",
        "loss_hint": "경사 하강 한 걸음마다의 L, 정한 학습률 η로",
        "loss_step": "걸음",
        "loss_x": "걸음",
        "update_label": "한 걸음, z ← z − η·(p − y′)/T:",
        "update_stable": "η가 4T² = {limit}보다 작으면 손실이 커지지 않고, 2T²부터는 최적점을 지나쳐 양쪽을 오갈 수 "
                         "있으며, 목표가 원-핫이면 어떤 η에서도 손실이 줄어듭니다",
        "update_sum": "점수의 합은 그대로입니다:",
        "jacobian_title": "야코비안 ∂pᵢ/∂zⱼ",
        "jacobian_hint": "= pᵢ(δᵢⱼ − pⱼ)/T · 빨강 +, 파랑 −",
        "jacobian_rows": "가장 큰 행의 합 (0: 모든 점수에 1을 더해도 p는 그대로):",
        "jacobian_chain": "연쇄 법칙 (∂L/∂p)ᵀJ:",
        "jacobian_arrows": "∂L/∂z = (p − y′)/T, 화살표와 반대 방향:",
        "race_title": "처음 뽑은 것들: z<sub>k</sub>/T + g<sub>k</sub>, 가장 큰 것이 이깁니다 (굵게)",
        "race_draw": "뽑기",
        "race_counts": "N = {n}번 뽑기에서 이긴 횟수: {counts} (막대 위의 ◆, ±2σ 수염과 함께)",
        "draws_hint": "◆: N번 뽑기 중 뽑힌 비율, ±2σ",
        "naive_title": "{dtype}로 세 가지 방법의 softmax(z/T)",
        "naive_col_naive": "그대로 e<sup>u</sup>/Σe<sup>u</sup>",
        "naive_col_shifted": "최댓값을 뺌",
        "naive_col_log": "exp(로그 소프트맥스)",
        "naive_over": "가장 큰 z/T는 {top}으로 ln(최대 {dtype}) = {at}보다 큽니다: e<sup>z/T</sup>가 넘쳐서 "
                      "그대로 계산한 "
                      "방법은 inf를 inf로 나눕니다.",
        "naive_under": "e<sup>z/T</sup>는 z/T = ln(최대) = {at}을 넘으면 {dtype}에서 넘칩니다. "
                       "가장 큰 z/T는 {top}입니다.",
        "naive_sum": "가장 큰 z/T는 {top}으로 ln(최대 {dtype}) = {at}보다 작아 e<sup>z/T</sup>는 하나도 넘치지 "
                     "않지만, 그 합이 넘칩니다: 그대로 계산하면 하나하나를 inf로 나누어 0을 보여 줍니다.",
        "naive_tiny": "{dtype}의 가장 작은 수보다 작은 p라서 위의 모든 방법에서 0입니다. 막대와 부류 표는 log p로 "
                      "정확히 씁니다: {values}.",
        "naive_loss_log_p": "−ln(softmax)로 구한 손실:",
        "naive_loss_lse": "−(z<sub>y</sub>/T − LSE)로:",
        "calibration": "실제 분류기 보정하기",
        "calibration_T": "분류기의 온도 T",
        "fit_T": "검증 데이터로 T 맞추기",
        "bins": "구간 M",
        "bins_options": {"10": "10", "15": "15", "20": "20"},
        "reliability_title": "시험 숫자 {n}개의 신뢰도",
        "reliability_hint": "흐린 막대: 숫자가 20개보다 적은 구간",
        "legend_accuracy": "정확도",
        "legend_over": "정확도보다 높은 확신",
        "legend_under": "확신보다 높은 정확도",
        "mce_few": "숫자 {n}개뿐인 구간에서 나온 값: 흔들리기 쉬운 최댓값",
        "reliability_x": "확신 (가장 큰 p)",
        "reliability_y": "정확도",
        "counts_title": "구간별 시험 숫자 수",
        "counts_hint": "위 그림과 같은 구간",
        "counts_y": "개수 (로그)",
        "nll_title": "T에 따른 평균 NLL",
        "nll_hint": "파랑: 시험 · 점선: 검증 · 점: 뉴턴 방법의 걸음",
        "nll_x": "온도 T (로그 눈금)",
        "nll_y": "평균 NLL ({unit})",
        "ece_label": "기대 보정 오차 ECE =",
        "mce_label": "최대 보정 오차 MCE =",
        "bins_aside": "구간 {M}개",
        "nll_label": "시험 숫자의 평균 NLL =",
        "accuracy_label": "정확도 =",
        "accuracy_aside": "{n}개 중 {right}개 맞음, 어떤 T에서도 같음",
        "fit_none": "“검증 데이터로 T 맞추기”는 검증 숫자 {n}개에서 β = 1/T에 뉴턴 방법을 씁니다.",
        "fit_done": "β = 1/T에 뉴턴 방법, T = 1에서 시작: {path}. 검증 NLL {before} → {after}.",
        "language_model": "언어 모델로 가는 길",
        "vocab_lang": "어휘",
        "vocab_lang_options": {"en": "영어 단어 50,000개", "ko": "한국어 형태소 29,988개"},
        "top_k": "Top-k (0: 끔)",
        "top_p": "Top-p (1: 끔)",
        "min_p": "Min-p (0: 끔)",
        "alibi_head": "ALiBi 헤드",
        "alibi_head_options": {"0": "없음", **{str(h): f"h = {h}, m = 1/{2 ** h}" for h in range(1, 9)}},
        "router_k": "라우터의 k",
        "vocab_title": "단어 빈도 모형 (문맥 없음): p = softmax(ln f / T)",
        "vocab_unit": {"en": "단어", "ko": "형태소"},
        "vocab_hint": "{unit} {V}개 · 회색: 거르기 전 · 파랑: 남긴 것, 다시 정규화",
        "vocab_x": "순위 (로그 눈금)",
        "vocab_y": "p (로그 눈금)",
        "attention_title": "인과적 어텐션, 부류를 토큰으로",
        "attention_hint": "행 i는 j ≤ i인 키를 봅니다: softmaxⱼ(zⱼ/T − m(i − j))",
        "attention_x": "키 j",
        "attention_y": "쿼리 i",
        "decay_title": "거리에 따른 ALiBi의 곱하는 수",
        "decay_hint": "막대: 마지막 토큰이 d 앞 토큰에 주는 가중치 ÷ 자신에게 주는 가중치 · 선: e^(−m·d)",
        "decay_x": "거리 d (앞으로 몇 토큰)",
        "decay_y": "상대 가중치",
        "router_title": "부류를 전문가로 보는 라우터",
        "router_hint": "상위 {k}개 전문가의 가중치, 합은 1",
        "router_y": "가중치",
        "distill_title": "증류의 기울기와 온도",
        "distill_hint": "주황: ‖∂KL/∂z‖ · 파랑: ‖∂KL/∂z‖·T² · 점: 지금의 T",
        "distill_x": "온도 T (로그 눈금)",
        "distill_y": "기울기의 크기 (로그 눈금)",
        "decoding_label": "남긴 것:",
        "decoding_kept": "{unit} {V}개 중 {kept}개",
        "decoding_mass": "다시 정규화하기 전 확률의 합 {mass}",
        "decoding_top": "가장 그럴듯한 것 (다시 정규화):",
        "uniform_label": "아무것도 모르는 모델의 손실 ln V =",
        "uniform_aside": "GPT-2의 어휘에서는 ln 50,257 = {gpt2}",
        "alibi_none": "ALiBi 편향 없음: 각 쿼리의 가중치는 볼 수 있는 키에 대한 "
                      "softmax<sub>j</sub>(z<sub>j</sub>/T)입니다.",
        "alibi_identity": "ALiBi는 −m(i − j)를 더합니다 (m = {m}). 한 행에서 −m·i는 모든 키에 같으므로 가중치는 "
                          "softmax<sub>j</sub>(z<sub>j</sub>/T + m·j)와도 같습니다: 이 페이지에서 둘의 가장 큰 "
                          "차이는 {diff}입니다.",
        "router_orders": "가리고 소프트맥스, 또는 소프트맥스 후 다시 정규화: 두 순서의 가중치 차이는 많아야 "
                         "{diff}입니다.",
        "distill_limit": "교사 v = ({v}), 학생 z = 여러분의 점수. T = {at}에서 ‖∇‖·T²: {values}; 이 값은 "
                         "‖(z − z̄) − (v − v̄)‖/K = {limit}에 다가갑니다. 그래서 증류는 손실에 T²을 곱합니다.",
        "lm_text": "<p>언어 모델은 어휘 전체에 대한 소프트맥스로 끝납니다. 여기의 어휘는 진짜입니다: "
                   "wordfreq (CC BY-SA 4.0)의 가장 흔한 영어 단어, 또는 한국어 형태소(이, 는, 을, …: wordfreq는 "
                   "한국어 글을 형태소로 나눕니다)이고, 각각의 점수는 빈도의 로그입니다. 문맥이 없는 단어 빈도 "
                   "모형이라, T = 1에서 각각은 앞에 무엇이 왔든 사람들이 쓰는 만큼 자주 뽑힙니다.</p>"
                   "<p>디코딩은 다음에 올 수 있는 "
                   "단어를 바꿉니다: top-k는 가장 그럴듯한 k개를, top-p는 확률의 합이 p에 이르는 가장 적은 "
                   "단어를, min-p는 1위 단어의 min-p배 이상인 단어를 남기고, 각각 남긴 것을 다시 정규화합니다. "
                   "어텐션, 전문가 혼합의 라우터, 증류도 소프트맥스이며, 여러분이 끄는 점수 위에 그려집니다.</p>",
        "calibration_text": "<p><b>보정</b>은 “90 % 확신”이 실제로 90 %의 경우에 맞는지를 묻습니다. 이 분류기는 "
                            "8×8 손글씨 숫자 200개만으로 학습한 로지스틱 회귀로, 시험 숫자의 91 %를 맞히지만 "
                            "T = 1에서는 지나치게 확신합니다: 막대가 대각선 아래에 있습니다.</p><p>모든 로짓을 "
                            "같은 T &gt; 0으로 나누어도 각 숫자의 가장 큰 로짓은 여전히 가장 크므로 정확도는 바뀔 "
                            "수 없습니다. T는 확신을 누그러뜨리거나 날카롭게 할 뿐입니다. 검증 숫자에서 T를 "
                            "맞추고(NLL은 β = 1/T에 대해 볼록합니다) 시험 숫자에서 재는 것이 온도 보정(Guo 외, "
                            "2017)이며, CIFAR-100의 ResNet-110에서 ECE를 16.53 %에서 1.26 %로 낮췄습니다.</p>",
        "units": "단위",
        "nats": "내트",
        "bits": "비트",
        "copy_link": "링크 복사",
        "download_png": "그림 저장 (PNG)",
        "download_svg": "그림 저장 (SVG)",
        "lang": "언어",
        "lang_options": {"en": "영어", "ko": "한국어", "es": "스페인어"},
        "theme": "어두운 테마",
        "lecture": "강의 모드",
        "teach": "강사용",
        "teach_intro": "지금의 수업에서 시작해 학습자가 바꿀 수 없거나 볼 수 없는 것, 단계, 언어, 색을 고르세요. "
                       "아래의 링크, 내보내기 명령, 강의 페이지용 iframe이 바로 그 수업을 엽니다.",
        "teach_step": "단계",
        "teach_lang": "언어",
        "teach_theme": "색",
        "teach_themes": {"light": "밝은 색", "dark": "어두운 색", "auto": "읽는 사람의 밝은 색 또는 어두운 색",
                         "projector": "프로젝터용 색"},
        "teach_lecture_on": "강의 모드",
        "teach_control": "조절 항목",
        "teach_lock": "고정",
        "teach_hide": "숨김",
        "teach_lock_one": "{key} 고정",
        "teach_hide_one": "{key} 숨김",
        "teach_link": "링크",
        "teach_command": "내보내기 명령",
        "teach_iframe": "강의 페이지용 iframe",
        "teach_copy": "복사",
        "teach_copied": "복사했습니다",
        "teach_says": "{k}/{n}단계 “{title}”에서 열립니다. 언어: {lang} · 색: {look}.",
        "teach_says_locked": "학습자가 바꿀 수 없는 것: {keys}.",
        "teach_says_hidden": "보이지 않는 것: {keys}.",
        "teach_says_free": "학습자가 모든 것을 바꿀 수 있습니다.",
        "teach_frame_title": "소프트맥스와 교차 엔트로피 설명: 점수를 끌어 보세요",
        "inputs_title": "끌지 않고 점수 바꾸기: ↑ ↓ 0.1씩, Shift + ↑ ↓ 1씩",
        "input_label": "{name}의 점수 z",
        "col_class": "부류",
        "col_prob": "p",
        "col_target": "y′",
        "col_arrow": "−∂L/∂z",
        "loss": "손실 L = −ln p<sub>y</sub>",
        "loss_smoothed": "손실 L = H(y′, p)",
        "start": "아무것도 모르는 모델은 ln K = {value}에서 시작합니다",
        "entropy": "엔트로피 H(p)",
        "entropy_max": "최댓값 log K",
        "lse": "로그합지수 LSE(z/T)",
        "arrow_sum": "화살표의 합",
        "formula": "소프트맥스",
        "py": "정답 부류: p<sub>y</sub>",
        "strip_title": "소프트맥스의 세 단계: 점수, 그 지수(막대: 가장 큰 것에 대한 몫), 그것을 합으로 "
                       "나눈 p(막대: 1에 대한 몫)",
        "sections_title": "더 보기:",
        "sections_options": {"table": "부류 표", "info": "정보량", "lse": "로그합지수"},
        "function": "함수 그림",
        "function_options": {"none": "없음", "nll": "손실 −ln p", "sigmoid": "점수 차에 따른 p: 시그모이드",
                             "sweep": "T에 따른 p와 엔트로피"},
        "fn_nll_title": "정답 부류의 손실: −ln p",
        "fn_nll_hint": "곡선: −ln p · 점: 지금 정답 부류의 p",
        "fn_nll_x": "정답 부류의 p",
        "fn_nll_y": "−ln p ({unit})",
        "fn_sigmoid_title": "정답 부류의 p는 점수 차의 시그모이드입니다",
        "fn_sigmoid_hint": "m = z_y/T − 나머지 z/T의 로그합지수; 두 부류면 (z₁ − z₂)/T · 점: 지금",
        "fn_sigmoid_x": "점수 차 m",
        "fn_sigmoid_y": "p = σ(m)",
        "fn_sweep_title": "T에 따른 각 p와 엔트로피",
        "fn_sweep_hint": "실선: 부류마다 p · 점선: H(p) / ln K · 점: 지금 T",
        "fn_sweep_x": "온도 T (로그 눈금)",
        "fn_sweep_y": "p, 그리고 H(p) / ln K",
        "lse_marks_hint": "띠: max z에서 max z + T ln K까지 · 점선: T·LSE(z/T)",
        "floor": "하한 H(y′)",
        "floor_zero": "유한한 점수에서는 손실이 0에 닿지 않습니다",
        "kl": "하한 위의 손실 KL(y′‖p)",
        "perplexity": "퍼플렉서티 e<sup>L</sup>",
        "perplexity_bits": "퍼플렉서티 2<sup>L</sup>",
        "gap": "가장 좋은 차이 z<sub>y</sub> − z<sub>k</sub> = T·ln((1 − ε + ε/K)/(ε/K))",
        "gap_now": "지금",
        "sigmoid": "두 부류: p<sub>1</sub> = σ((z<sub>1</sub> − z<sub>2</sub>)/T)",
        "info_floor": "하한 H(y′)",
        "info_kl": "KL(y′‖p)",
        "info_start": "ln K",
        "live": "{name}: p = {p}, 손실 {loss} {unit}",
        "caption": "T = {T} · ε = {eps} · K = {K} · 정답 부류 {name}: p = {p} · 손실 L = {loss} {unit}",
        "at_limit": "점수는 ±{limit}에서 멈춥니다: 이 설명 도구는 점수를 축 안에 둡니다.",
        "clamped": "점수가 축의 끝에서 멈춥니다.",
        "max_classes": "부류는 최대 {max}개입니다.",
        "min_classes": "부류는 최소 {min}개입니다.",
        "name_type": "부류 이름은 글자여야 합니다.",
        "paste_logits": "내 모델의 점수(로짓)를 붙여 넣고 Enter",
        "paste_folded": "붙여 넣은 행의 값 {size}개 중 가장 큰 {kept}개는 각각 부류가 되고, 나머지 "
                        "{folded}개는 “{rest}”로 합쳐졌습니다. 그 점수는 이들의 log-sum-exp이므로 T = 1에서 이들의 "
                        "확률 합은 전체 행에서와 같은 p = {p}입니다.",
        "paste_shifted": "모든 점수를 ±{limit} 안에 들도록 {shift}만큼 옮겼습니다. 소프트맥스는 바뀌지 않습니다.",
        "paste_clamped": "그중 {n}개는 −{limit}보다 작아 −{limit}(으)로 올렸습니다(각각 p가 가장 큰 부류의 "
                         "e^−100배보다 작았습니다).",
        "name_blank": "부류 이름은 비어 있으면 안 됩니다.",
        "name_long": "부류 이름은 최대 {name_max}자입니다.",
        "name_control": "부류 이름에 제어 문자나 줄바꿈을 넣을 수 없습니다.",
        "name_bidi": "부류 이름에 글자 방향 제어 문자를 넣을 수 없습니다.",
        "name_comma": "부류 이름에 쉼표를 넣을 수 없습니다. 쉼표는 이름을 나눕니다.",
        "name_unknown": "부류 이름에 이 설명 도구가 확인할 수 없는 새 문자가 있습니다.",
        "name_duplicate": "부류 이름은 서로 달라야 합니다.",
        "class_count": "부류마다 이름을 하나씩 ({K}개), 쉼표로 구분해 주세요.",
        "not_number": "숫자를 입력해 주세요.",
        "decimal_comma": "소수점은 점으로 써 주세요: 2,5가 아니라 2.5.",
        "not_finite": "유한한 숫자를 입력해 주세요.",
        "logit_range": "점수는 ±{limit} 안에 있습니다.",
        "paste_long": "최대 {paste_max}자까지 붙여 넣을 수 있습니다.",
        "paste_summary": "이 행은 요약입니다: “...” 자리의 값은 출력되지 않았습니다. 전체를 출력해 주세요 "
                         "(NumPy: np.set_printoptions(threshold=sys.maxsize); PyTorch: "
                         "torch.set_printoptions(profile=\"full\")).",
        "paste_format": "PyTorch, NumPy 또는 리스트가 출력한 점수 한 행을 붙여 넣어 주세요: "
                        "tensor([2.0, 1.0, 0.1]), [2 1 0.1] 또는 2, 1, 0.1.",
        "paste_batch": "여러 행이 아니라 한 행을 붙여 넣어 주세요: 예를 들어 x[0]을 출력하세요.",
        "paste_count": "점수 한 행에는 값이 {min}개 이상 있어야 합니다.",
        "paste_not_finite": "모든 점수는 유한한 숫자여야 합니다: nan이나 inf를 출력하는 모델은 먼저 고쳐야 합니다.",
        "T_range": "T는 {T_lo}에서 {T_hi} 사이입니다.",
        "cT_range": "분류기의 T는 {cT_lo}에서 {cT_hi} 사이입니다.",
        "topk_range": "Top-k는 {topk_lo}에서 {topk_hi} 사이입니다 (0: 끔).",
        "topp_range": "Top-p는 {topp_lo}에서 {topp_hi} 사이입니다.",
        "minp_range": "Min-p는 {minp_lo}에서 {minp_hi} 사이입니다.",
        "rk_range": "라우터의 k는 {rk_lo}에서 {rk_hi} 사이입니다.",
        "eps_range": "ε은 {eps_lo}에서 {eps_hi} 사이입니다.",
        "lr_range": "η는 {lr_lo}에서 {lr_hi} 사이입니다.",
        "n_range": "N은 {n_lo}에서 {n_hi} 사이입니다.",
        "seed_range": "시드는 {seed_lo}에서 {seed_hi} 사이입니다.",
        "not_whole": "정수를 입력해 주세요.",
        "refused": "그 변경은 받아들이지 않았습니다. 수업 상태는 그대로입니다.",
        "link_bad": "링크의 일부 값({keys})을 쓸 수 없어 기본값으로 보여 줍니다.",
        "link_copied": "링크를 복사했습니다: {url}",
        "link_shown": "이 링크를 복사해 주세요: {url}",
        "connection_lost": "서버와의 연결이 끊겼습니다. 모든 변경은 이 페이지에서 그대로 작동하고 "
                           "이 페이지에 남습니다.",
        "connection_back": '서버가 돌아왔습니다: <a href="{url}">이 수업 상태로 다시 연결하기</a>.',
        "tour": "따라 배우기",
        "tour_back": "이전",
        "tour_next": "다음",
        "tour_setup": "처음부터 다시",
        "tour_naive_over": "e<sup>z/T</sup>가 넘쳐, 그대로 계산하면 무한대를 무한대로 나누어 NaN이 나옵니다",
        "tour_naive_fine": "넘치는 e<sup>z/T</sup>가 없어, 그대로 계산해도 그림과 같습니다",
        "tour_undo": "“처음부터 다시” 되돌리기",
        "tour_of": "{n}단계 중 {k}단계",
        "tour_task": "할 일:",
        "tour_predict": "예측:",
        "tour_right": "“{guess}”: 맞았습니다.",
        "tour_wrong": "“{guess}”라고 했지요. 답은 “{answer}”입니다.",
        "tour_hint": "도움말",
        "tour_done": "해냈습니다:",
        "tour_live": "{n}단계 중 {k}단계: {title}",
        "tour_live_done": "할 일을 마쳤습니다: {done}",
        "step_range": "단계는 {step_lo}에서 {step_hi} 사이입니다.",
        "tour_steps": TOUR_KO,
    },
    "es": {
        "title": "Softmax y entropía cruzada, a mano",
        "subtitle": "Arrastra un punto hacia arriba o hacia abajo, o escribe un logit debajo. Todos los números "
                    "cambian en el mismo fotograma.",
        "locked_note": "Este enlace fija {keys}.",
        "lock_names": {"z": "los logits", "T": "la temperatura", "y": "la clase verdadera", "eps": "ε",
                       "lr": "la tasa de aprendizaje", "units": "las unidades", "names": "los nombres de las clases",
                       "lang": "el idioma", "theme": "el tema", "lecture": "el modo presentación",
                       "open": "las secciones abiertas", "n": "el número de muestras", "seed": "la semilla",
                       "sample": "las muestras", "jacobian": "la jacobiana", "naive": "la softmax ingenua",
                       "dtype": "el tipo numérico", "learn": "los pasos de gradiente",
                       "logloss": "la escala de la figura de la pérdida", "step": "el paso del recorrido",
                       "tour": "el recorrido guiado", "calib": "la vista de calibración",
                       "cT": "la temperatura del clasificador", "bins": "los intervalos",
                       "lm": "la vista de modelos de lenguaje", "vlang": "el vocabulario", "topk": "top-k",
                       "topp": "top-p", "minp": "min-p", "head": "la cabeza de ALiBi", "rk": "la k del enrutador",
                       "fn": "la figura de la función", "teach": "la sección docente"},
        "class_names": ["gato", "perro", "pájaro", "pez", "caballo", "rana", "ciervo", "barco", "camión", "avión"],
        "logit_title": "Logits z (arrastra los puntos)",
        "logit_hint": "flechas verdes: −∂L/∂z = (y′ − p)/T, longitud ×2",
        "logit_axis": "logit z",
        "prob_title": "Probabilidades p = softmax(z / T)",
        "prob_hint": "borde: clase verdadera · naranja: objetivo y′",
        "prob_axis": "probabilidad p",
        "class_axis": "clase",
        "temperature": "Temperatura T (escala log.)",
        "true_class": "Clase verdadera y",
        "add_one": "Sumar 1 a todos los logits",
        "subtract_max": "Restar el logit más alto",
        "reset": "Volver a los logits iniciales",
        "reset_all": "Reiniciar todo",
        "add_class": "Añadir una clase",
        "remove_class": "Quitar la última clase",
        "class_names_box": "Nombres, separados por comas",
        "row_class": "clase {i}",
        "row_rest": "resto ({n})",
        "preset": "Escenario",
        "preset_none": "Elige un escenario…",
        "preset_seed": "Gato, perro, pájaro",
        "preset_two": "Dos clases: la sigmoide",
        "preset_ten": "Diez clases",
        "preset_uniform": "No sabe nada: logits iguales",
        "label_smoothing": "Suavizado de etiquetas ε",
        "learning_rate": "Tasa de aprendizaje η (marca: 4T²)",
        "lab_title": "Prueba:",
        "learn": "Aprender paso a paso",
        "log_loss": "Escala logarítmica",
        "step": "Dar un paso",
        "play": "Reproducir",
        "pause": "Pausar",
        "sample": "Extraer N muestras",
        "num_samples": "Muestras N",
        "seed": "Semilla",
        "jacobian": "Mostrar la jacobiana",
        "naive": "Romper la softmax ingenua",
        "naive_dtype": "Tipo numérico",
        "float64": "float64",
        "float32": "float32",
        "float16": "float16",
        "loss_title": "Pérdida tras cada paso de gradiente",
        "loss_hint": "L tras cada paso de gradiente, con la tasa de aprendizaje η elegida",
        "loss_step": "paso",
        "loss_x": "paso",
        "update_label": "Un paso, z ← z − η·(p − y′)/T:",
        "update_stable": "por debajo de η = 4T² = {limit} un paso nunca sube la pérdida; desde 2T² puede pasarse del "
                         "óptimo y oscilar a su alrededor; con un objetivo one-hot la pérdida baja con cualquier η",
        "update_sum": "La suma de los logits no cambia:",
        "jacobian_title": "Jacobiana ∂pᵢ/∂zⱼ",
        "jacobian_hint": "= pᵢ(δᵢⱼ − pⱼ)/T · rojo +, azul −",
        "jacobian_rows": "Mayor suma de una fila (0: sumar 1 a todos los logits no cambia ninguna p):",
        "jacobian_chain": "Regla de la cadena (∂L/∂p)ᵀJ:",
        "jacobian_arrows": "∂L/∂z = (p − y′)/T, en sentido opuesto a las flechas:",
        "race_title": "Las primeras extracciones: z<sub>k</sub>/T + g<sub>k</sub>, gana el mayor (en negrita)",
        "race_draw": "extracción",
        "race_counts": "Victorias en las N = {n} extracciones: {counts} (el ◆ sobre las barras, con bigotes de ±2σ)",
        "draws_hint": "◆: fracción de las N muestras, ±2σ",
        "naive_title": "softmax(z/T) de tres maneras en {dtype}",
        "naive_col_naive": "ingenua e<sup>u</sup>/Σe<sup>u</sup>",
        "naive_col_shifted": "restando el máximo",
        "naive_col_log": "exp(log-softmax)",
        "naive_over": "El mayor z/T es {top}, por encima de ln(max {dtype}) = {at}: e<sup>z/T</sup> se desborda, y "
                      "la forma ingenua divide inf entre inf.",
        "naive_under": "e<sup>z/T</sup> desborda {dtype} a partir de z/T = ln(max) = {at}; el mayor z/T es {top}.",
        "naive_sum": "El mayor z/T es {top}, por debajo de ln(max {dtype}) = {at}: ningún e<sup>z/T</sup> se "
                     "desborda, pero su suma sí, y la forma ingenua divide cada uno entre inf y muestra 0.",
        "naive_tiny": "p por debajo del menor {dtype}, así que 0 en todas las formas de arriba; las barras y la tabla "
                      "de clases la escriben exacta, a partir de log p: {values}.",
        "naive_loss_log_p": "Pérdida como −ln(softmax):",
        "naive_loss_lse": "como −(z<sub>y</sub>/T − LSE):",
        "calibration": "Calibrar un clasificador real",
        "calibration_T": "Temperatura T del clasificador",
        "fit_T": "Ajustar T en validación",
        "bins": "Intervalos M",
        "bins_options": {"10": "10", "15": "15", "20": "20"},
        "reliability_title": "Fiabilidad en {n} dígitos de prueba",
        "reliability_hint": "atenuado: un intervalo de menos de 20 dígitos",
        "legend_accuracy": "exactitud",
        "legend_over": "confianza por encima de la exactitud",
        "legend_under": "exactitud por encima de la confianza",
        "mce_few": "de un intervalo de solo {n} dígitos: un máximo ruidoso",
        "reliability_x": "confianza (la mayor p)",
        "reliability_y": "exactitud",
        "counts_title": "Dígitos de prueba por intervalo",
        "counts_hint": "los mismos intervalos que arriba",
        "counts_y": "recuento (log)",
        "nll_title": "NLL medio frente a T",
        "nll_hint": "azul: prueba · trazos: validación · puntos: pasos de Newton",
        "nll_x": "temperatura T (escala log.)",
        "nll_y": "NLL medio ({unit})",
        "ece_label": "Error de calibración esperado ECE =",
        "mce_label": "Error de calibración máximo MCE =",
        "bins_aside": "en {M} intervalos",
        "nll_label": "NLL medio en los dígitos de prueba =",
        "accuracy_label": "Exactitud =",
        "accuracy_aside": "{right} aciertos de {n}, los mismos con cualquier T",
        "fit_none": "«Ajustar T en validación» aplica el método de Newton a β = 1/T sobre los {n} dígitos de "
                    "validación.",
        "fit_done": "Método de Newton sobre β = 1/T desde T = 1: {path}. NLL de validación {before} → {after}.",
        "language_model": "Hacia los modelos de lenguaje",
        "vocab_lang": "Vocabulario",
        "vocab_lang_options": {"en": "inglés, 50,000 palabras", "ko": "coreano, 29,988 morfemas"},
        "top_k": "Top-k (0: no)",
        "top_p": "Top-p (1: no)",
        "min_p": "Min-p (0: no)",
        "alibi_head": "Cabeza de ALiBi",
        "alibi_head_options": {"0": "ninguna", **{str(h): f"h = {h}, m = 1/{2 ** h}" for h in range(1, 9)}},
        "router_k": "k del enrutador",
        "vocab_title": "Unigramas (sin contexto): p = softmax(ln f / T)",
        "vocab_unit": {"en": "palabras", "ko": "morfemas"},
        "vocab_hint": "{V} {unit} · gris: antes de los filtros · azul: lo que queda, renormalizado",
        "vocab_x": "rango (escala log.)",
        "vocab_y": "p (escala log.)",
        "attention_title": "Atención causal, con las clases como tokens",
        "attention_hint": "la fila i atiende a las claves j ≤ i: softmaxⱼ(zⱼ/T − m(i − j))",
        "attention_x": "clave j",
        "attention_y": "consulta i",
        "decay_title": "El factor de ALiBi según la distancia",
        "decay_hint": "barras: peso del último token d posiciones atrás ÷ su peso sobre sí mismo · línea: e^(−m·d)",
        "decay_x": "distancia d (tokens atrás)",
        "decay_y": "peso relativo",
        "router_title": "Un enrutador con las clases como expertos",
        "router_hint": "los pesos de los {k} mejores expertos, que suman 1",
        "router_y": "peso",
        "distill_title": "El gradiente de la destilación frente a T",
        "distill_hint": "naranja: ‖∂KL/∂z‖ · azul: ‖∂KL/∂z‖·T² · punto: tu T",
        "distill_x": "temperatura T (escala log.)",
        "distill_y": "norma del gradiente (escala log.)",
        "decoding_label": "Quedan:",
        "decoding_kept": "{kept} de {V} {unit}",
        "decoding_mass": "su masa antes de renormalizar {mass}",
        "decoding_top": "Las más probables, renormalizadas:",
        "uniform_label": "Un modelo que no sabe nada puntúa ln V =",
        "uniform_aside": "ln 50,257 = {gpt2} para el vocabulario de GPT-2",
        "alibi_none": "Sin sesgo de ALiBi: los pesos de cada consulta son softmax<sub>j</sub>(z<sub>j</sub>/T) sobre "
                      "las claves que ve.",
        "alibi_identity": "ALiBi suma −m(i − j), m = {m}. Dentro de una fila −m·i es igual para todas las claves, así "
                          "que los pesos son también softmax<sub>j</sub>(z<sub>j</sub>/T + m·j): la mayor diferencia "
                          "entre ambos en esta página es {diff}.",
        "router_orders": "Enmascarar y luego softmax, o softmax y luego renormalizar: los pesos de los dos órdenes "
                         "difieren como mucho en {diff}.",
        "distill_limit": "Profesor v = ({v}), estudiante z = tus logits. ‖∇‖·T² con T = {at}: {values}; tiende a "
                         "‖(z − z̄) − (v − v̄)‖/K = {limit}, y por eso la destilación multiplica su pérdida por T².",
        "lm_text": "<p>Un modelo de lenguaje termina en una softmax sobre todo su vocabulario. Aquí el vocabulario es "
                   "real: las palabras más frecuentes de wordfreq (CC BY-SA 4.0), o en coreano sus morfemas (이, 는, "
                   "을, …: wordfreq divide en ellos el texto coreano), y el logit de cada una es el logaritmo de su "
                   "frecuencia. Es un modelo de unigramas, sin contexto: con T = 1 cada una sale tan a menudo como "
                   "la gente la escribe, venga lo que venga antes.</p><p>La decodificación cambia qué palabras "
                   "pueden venir después: top-k deja las k más probables, top-p las menos posibles cuya masa llega "
                   "a p, min-p las que son al menos min-p veces tan probables como la primera; cada filtro "
                   "renormaliza lo que deja. La atención, el enrutador de una mezcla de expertos y la destilación "
                   "también son softmax, dibujadas sobre los logits que arrastras.</p>",
        "calibration_text": "<p>La <b>calibración</b> pregunta si «seguro al 90 %» acierta el 90 % de las veces. "
                            "Este clasificador, una regresión logística entrenada con solo 200 dígitos manuscritos "
                            "de 8×8, acierta el 91 % de los dígitos de prueba pero con T = 1 está demasiado seguro de "
                            "sí mismo: sus barras quedan bajo la diagonal.</p><p>Dividir cada logit entre una misma "
                            "T &gt; 0 mantiene el mayor logit de cada dígito como el mayor, así que la exactitud no "
                            "puede cambiar; T solo suaviza o agudiza la confianza. Ajustar T en dígitos de "
                            "validación (el NLL es convexo en β = 1/T) y medir en dígitos de prueba es el escalado "
                            "de temperatura (Guo et al., 2017), que llevó el ECE de una ResNet-110 en CIFAR-100 "
                            "del 16.53 % al 1.26 %.</p>",
        "units": "Unidades",
        "nats": "nats",
        "bits": "bits",
        "copy_link": "Copiar enlace",
        "download_png": "Guardar figuras (PNG)",
        "download_svg": "Guardar figuras (SVG)",
        "lang": "Idioma",
        "lang_options": {"en": "inglés", "ko": "coreano", "es": "español"},
        "theme": "Tema oscuro",
        "lecture": "Modo presentación",
        "teach": "Docente",
        "teach_intro": "Parte de la lección tal como está ahora y elige lo que un estudiante no podrá cambiar ni ver, "
                       "el paso, el idioma y los colores: el enlace, la orden de exportación y el iframe de abajo "
                       "abren exactamente esa lección.",
        "teach_step": "Paso",
        "teach_lang": "Idioma",
        "teach_theme": "Colores",
        "teach_themes": {"light": "colores claros", "dark": "colores oscuros",
                         "auto": "los colores claros u oscuros del lector", "projector": "colores para proyector"},
        "teach_lecture_on": "modo presentación",
        "teach_control": "Control",
        "teach_lock": "Fijar",
        "teach_hide": "Ocultar",
        "teach_lock_one": "Fijar {key}",
        "teach_hide_one": "Ocultar {key}",
        "teach_link": "Enlace",
        "teach_command": "Orden de exportación",
        "teach_iframe": "iframe para la página de un curso",
        "teach_copy": "Copiar",
        "teach_copied": "Copiado",
        "teach_says": "Se abre en el paso {k} de {n}, «{title}», en {lang}, con {look}.",
        "teach_says_locked": "Un estudiante no puede cambiar {keys}.",
        "teach_says_hidden": "No se muestra: {keys}.",
        "teach_says_free": "Un estudiante puede cambiarlo todo.",
        "teach_frame_title": "Explicación interactiva de softmax y la entropía cruzada: arrastra los logits",
        "inputs_title": "Logits sin arrastrar: ↑ ↓ cambian 0.1, Mayús + ↑ ↓ cambian 1",
        "input_label": "logit z de {name}",
        "col_class": "clase",
        "col_prob": "p",
        "col_target": "y′",
        "col_arrow": "−∂L/∂z",
        "loss": "Pérdida L = −ln p<sub>y</sub>",
        "loss_smoothed": "Pérdida L = H(y′, p)",
        "start": "un modelo que no sabe nada empieza en ln K = {value}",
        "entropy": "Entropía H(p)",
        "entropy_max": "máx. log K",
        "lse": "log-sum-exp LSE(z/T)",
        "arrow_sum": "Suma de las flechas",
        "formula": "softmax",
        "py": "Clase verdadera: p<sub>y</sub>",
        "strip_title": "Softmax en tres pasos: la puntuación, su exponencial (barra: su parte respecto a la mayor) y "
                       "esta dividida entre la suma, p (barra: su parte de 1)",
        "sections_title": "Más lecturas:",
        "sections_options": {"table": "Tabla", "info": "Información", "lse": "log-sum-exp"},
        "function": "Figura de una función",
        "function_options": {"none": "ninguna", "nll": "la pérdida −ln p", "sigmoid": "p según su margen: σ",
                             "sweep": "p y entropía según T"},
        "fn_nll_title": "La pérdida de la clase verdadera: −ln p",
        "fn_nll_hint": "curva: −ln p · punto: la p actual de la clase verdadera",
        "fn_nll_x": "p de la clase verdadera",
        "fn_nll_y": "−ln p ({unit})",
        "fn_sigmoid_title": "La p de la clase verdadera es la sigmoide de su margen",
        "fn_sigmoid_hint": "m = z_y/T − LSE de las z/T de las demás; dos clases: (z₁ − z₂)/T · punto: ahora",
        "fn_sigmoid_x": "margen m",
        "fn_sigmoid_y": "p = σ(m)",
        "fn_sweep_title": "Cada p y la entropía frente a T",
        "fn_sweep_hint": "continuas: la p de cada clase · discontinua: H(p) / ln K · puntos: tu T",
        "fn_sweep_x": "temperatura T (escala log.)",
        "fn_sweep_y": "p, y H(p) / ln K",
        "lse_marks_hint": "banda: de max z a max z + T ln K · trazos: T·LSE(z/T)",
        "floor": "Suelo H(y′)",
        "floor_zero": "con logits finitos la pérdida nunca llega a 0",
        "kl": "Por encima del suelo KL(y′‖p)",
        "perplexity": "Perplejidad e<sup>L</sup>",
        "perplexity_bits": "Perplejidad 2<sup>L</sup>",
        "gap": "Distancia óptima z<sub>y</sub> − z<sub>k</sub> = T·ln((1 − ε + ε/K)/(ε/K))",
        "gap_now": "ahora",
        "sigmoid": "Dos clases: p<sub>1</sub> = σ((z<sub>1</sub> − z<sub>2</sub>)/T)",
        "info_floor": "suelo H(y′)",
        "info_kl": "KL(y′‖p)",
        "info_start": "ln K",
        "live": "{name}: p = {p}; pérdida {loss} {unit}",
        "caption": "T = {T} · ε = {eps} · K = {K} · clase verdadera {name}: p = {p} · pérdida L = {loss} {unit}",
        "at_limit": "Los logits se detienen en ±{limit}: esta explicación los mantiene en el eje.",
        "clamped": "Un logit se detiene en el borde del eje.",
        # A row of one's own logits (static/fold.mjs): the box, and what the page says of a row it folded.
        "paste_logits": "Pega tus logits y pulsa Enter",
        "paste_folded": "De los {size} valores de tu fila, los {kept} mayores son clases propias y los otros "
                        "{folded} se agrupan en «{rest}», cuyo logit es su log-sum-exp: con T = 1 suman juntos "
                        "p = {p}, como en la fila completa.",
        "paste_shifted": "Todos los logits se desplazaron {shift} para caber en ±{limit}; softmax no cambia.",
        "paste_clamped": "{n} de ellos quedaban por debajo de −{limit} y se subieron hasta ese valor (cada uno tenía "
                         "una p menor que e^−100 veces la del mayor).",
        "max_classes": "Como máximo {max} clases.",
        "min_classes": "Como mínimo {min} clases.",
        "name_type": "El nombre de una clase debe ser texto.",
        "name_blank": "El nombre de una clase no puede estar en blanco.",
        "name_long": "El nombre de una clase tiene como máximo {name_max} caracteres.",
        "name_control": "El nombre de una clase no puede contener caracteres de control ni saltos de línea.",
        "name_bidi": "El nombre de una clase no puede contener controles de dirección del texto.",
        "name_comma": "El nombre de una clase no puede contener comas: las comas separan los nombres.",
        "name_unknown": "El nombre de una clase contiene un carácter demasiado nuevo para que esta explicación lo "
                        "compruebe.",
        "name_duplicate": "Los nombres de las clases deben ser distintos entre sí.",
        "class_count": "Da un nombre por clase ({K}), separados por comas.",
        "not_number": "Escribe un número.",
        "decimal_comma": "Usa el punto para los decimales: 2.5, no 2,5.",
        "not_finite": "Escribe un número finito.",
        "logit_range": "Un logit está entre −{limit} y {limit}.",
        "paste_long": "Pega como máximo {paste_max} caracteres.",
        "paste_summary": "Esta fila es un resumen: «...» sustituye valores que no se imprimieron. Imprímela completa "
                         "(NumPy: np.set_printoptions(threshold=sys.maxsize); PyTorch: "
                         "torch.set_printoptions(profile=\"full\")).",
        "paste_format": "Pega una fila de logits tal como la imprime PyTorch, NumPy o una lista: "
                        "tensor([2.0, 1.0, 0.1]), [2 1 0.1] o 2, 1, 0.1.",
        "paste_batch": "Pega una sola fila, no un lote de filas: imprime x[0], por ejemplo.",
        "paste_count": "Una fila de logits tiene al menos {min} valores.",
        "paste_not_finite": "Cada logit debe ser un número finito: un modelo que imprime nan o inf tiene primero un "
                            "error que corregir.",
        "T_range": "T va de {T_lo} a {T_hi}.",
        "cT_range": "La T del clasificador va de {cT_lo} a {cT_hi}.",
        "topk_range": "Top-k va de {topk_lo} a {topk_hi} (0: desactivado).",
        "topp_range": "Top-p va de {topp_lo} a {topp_hi}.",
        "minp_range": "Min-p va de {minp_lo} a {minp_hi}.",
        "rk_range": "La k del enrutador va de {rk_lo} a {rk_hi}.",
        "eps_range": "ε va de {eps_lo} a {eps_hi}.",
        "lr_range": "η va de {lr_lo} a {lr_hi}.",
        "n_range": "N va de {n_lo} a {n_hi}.",
        "seed_range": "La semilla va de {seed_lo} a {seed_hi}.",
        "not_whole": "Escribe un número entero.",
        "refused": "Ese cambio se rechazó; la lección sigue como estaba.",
        "link_bad": "El enlace traía valores que no se podían usar ({keys}); se muestran sus valores por defecto.",
        "link_copied": "Enlace copiado: {url}",
        "link_shown": "Copia este enlace: {url}",
        "connection_lost": "Se perdió la conexión con el servidor: todos los cambios siguen funcionando aquí y se "
                           "quedan en esta página.",
        "connection_back": 'El servidor ha vuelto: <a href="{url}">reconectar con esta lección</a>.',
        "tour": "Recorrido guiado",
        "tour_back": "Atrás",
        "tour_next": "Siguiente",
        "tour_setup": "Repetir paso",
        "tour_naive_over": "e<sup>z/T</sup> se desborda, y la forma ingenua divide infinito entre infinito y muestra "
                           "NaN",
        "tour_naive_fine": "ningún e<sup>z/T</sup> se desborda, y la forma ingenua coincide con las figuras",
        "tour_undo": "Deshacer «Repetir paso»",
        "tour_of": "Paso {k} de {n}",
        "tour_task": "Tu tarea:",
        "tour_predict": "Predice:",
        "tour_right": "Dijiste «{guess}»: correcto.",
        "tour_wrong": "Dijiste «{guess}»; es «{answer}».",
        "tour_hint": "Pista",
        "tour_done": "Hecho:",
        "tour_live": "Paso {k} de {n}: {title}",
        "tour_live_done": "Tarea hecha: {done}",
        "step_range": "El paso va de {step_lo} a {step_hi}.",
        "tour_steps": TOUR_ES,
    },
}
LANGS = tuple(TEXT)


def default_class_names(lang, K):
    """The first K default class names in `lang` (cat, dog, bird, …)."""
    names = TEXT[lang]["class_names"]
    if not 2 <= K <= len(names):
        raise ValueError(f"the explainer shows 2 to {len(names)} classes, not {K}")
    return list(names[:K])
