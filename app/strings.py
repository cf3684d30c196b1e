"""Every string the explainer shows, in English and Korean: one table, so no label is hard-coded in a view."""

TEXT = {
    "en": {
        "title": "Softmax and cross-entropy, by hand",
        "subtitle": "Drag a point up or down. Every number below follows in the same frame.",
        "class_names": ["cat", "dog", "bird", "fish", "horse", "frog", "deer", "ship", "truck", "plane"],
        "logit_title": "Logits z (drag the points) · teal arrows: −∂L/∂z, drawn at 2× length",
        "logit_axis": "logit z",
        "prob_title": "Probabilities p = softmax(z / T) · true class outlined",
        "prob_axis": "probability p",
        "class_axis": "class",
        "temperature": "Temperature T (log scale)",
        "true_class": "True class y",
        "add_one": "Add 1 to every logit",
        "reset": "Back to the initial logits",
        "col_class": "class",
        "col_prob": "p",
        "col_arrow": "−∂L/∂z",
        "loss": "Loss L = −ln p<sub>y</sub>",
        "nats": "nats",
        "bits": "bits",
        "entropy": "Entropy H(p)",
        "entropy_max": "max log<sub>2</sub> K",
        "lse": "log-sum-exp LSE(z/T)",
        "arrow_sum": "Sum of the arrows",
        "formula": "softmax",
        "at_limit": "The logits stop at ±{limit}: this explainer keeps them on the axis.",
        "clamped": "A logit stops at the edge of the axis.",
    },
    "ko": {
        "title": "손으로 움직여 보는 소프트맥스와 교차 엔트로피",
        "subtitle": "점을 위아래로 끌어 보세요. 아래의 모든 숫자가 같은 프레임에 따라 움직입니다.",
        "class_names": ["고양이", "개", "새", "물고기", "말", "개구리", "사슴", "배", "트럭", "비행기"],
        "logit_title": "로짓 z (점을 끌어 보세요) · 청록색 화살표: −∂L/∂z, 2배 길이로 그림",
        "logit_axis": "로짓 z",
        "prob_title": "확률 p = softmax(z / T) · 정답 클래스는 테두리로 표시",
        "prob_axis": "확률 p",
        "class_axis": "클래스",
        "temperature": "온도 T (로그 눈금)",
        "true_class": "정답 클래스 y",
        "add_one": "모든 로짓에 1 더하기",
        "reset": "처음 로짓으로 되돌리기",
        "col_class": "클래스",
        "col_prob": "p",
        "col_arrow": "−∂L/∂z",
        "loss": "손실 L = −ln p<sub>y</sub>",
        "nats": "내트",
        "bits": "비트",
        "entropy": "엔트로피 H(p)",
        "entropy_max": "최댓값 log<sub>2</sub> K",
        "lse": "로그-합-지수 LSE(z/T)",
        "arrow_sum": "화살표의 합",
        "formula": "소프트맥스",
        "at_limit": "로짓은 ±{limit}에서 멈춥니다: 이 설명 도구는 로짓을 축 안에 둡니다.",
        "clamped": "로짓이 축의 끝에서 멈춥니다.",
    },
}


def default_class_names(lang, K):
    """The first K default class names in `lang` (cat, dog, bird, …)."""
    names = TEXT[lang]["class_names"]
    if not 2 <= K <= len(names):
        raise ValueError(f"the explainer shows 2 to {len(names)} classes, not {K}")
    return list(names[:K])
