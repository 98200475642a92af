"""Child side of day 31: call broadcast_shape, broadcast_to, sum_axis and matmul on flat
lists; send the shapes and numbers back (and, for shapes that do not broadcast, whether
broadcast_shape raised ValueError).
"""

from .refusal import refusal


def _shape(shape):
    shape = list(shape)
    return {"len(shape)": len(shape), **{f"shape[{i}]": s for i, s in enumerate(shape)}}


def _data(data):
    data = list(data)
    return {"len(data)": len(data), **{f"data[{i}]": x for i, x in enumerate(data)}}


def run(module, case):
    inputs, kind = case["inputs"], case["kind"]
    if kind == "shape":
        return _shape(module.broadcast_shape(tuple(inputs["a"]), tuple(inputs["b"])))
    if kind == "refuse":
        a, b = tuple(inputs["a"]), tuple(inputs["b"])
        return refusal(lambda: module.broadcast_shape(a, b), run, module, inputs.get("then"))
    if kind == "expand":
        out_shape = tuple(inputs["out_shape"])
        return _data(module.broadcast_to(list(inputs["data"]), tuple(inputs["shape"]), out_shape))
    if kind == "sum":
        data, shape = module.sum_axis(
            list(inputs["data"]), tuple(inputs["shape"]), inputs["axis"], inputs["keepdims"]
        )
    else:
        data, shape = module.matmul(
            list(inputs["a"]), tuple(inputs["a_shape"]), list(inputs["b"]), tuple(inputs["b_shape"])
        )
    return {**_data(data), **_shape(shape)}
