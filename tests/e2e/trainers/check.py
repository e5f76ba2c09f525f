"""What trainers read from an assay export, checked with their own
libraries (issue 25 items 1-4; tests/e2e/065-trainers.sh runs it with
the project venv's Python).

    check.py big FILE                  a plain sft file loads in HF datasets
                                       without options; every row has the
                                       same keys; moved back, its first row
                                       (the one with a repair's types) makes
                                       the same load fail
    check.py folder DIR                load_dataset(DIR) by its card: the
                                       splits, no failing row in default,
                                       the failing config, the card's
                                       features, DatasetCard.load
    check.py commit REPO FAILING_ID    the same for an `assay commit` repo
    check.py loss T1,T2.. PREFIX FAILED...
                                       the tokens that carry loss for each
                                       --for target (its export in
                                       PREFIX<target>): only the final code's

No model or data set is downloaded: the tokenizer is a WordLevel one
built here from the export's own text, with a ChatML chat template, and
TRL's trainer gets a two-layer GPT-2 made from a config.
"""
import glob
import json
import os
import re
import sys
import tempfile

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
CACHE = tempfile.mkdtemp(prefix="assay-hf-")
os.environ["HF_HOME"] = CACHE

import warnings  # noqa: E402

warnings.filterwarnings("ignore", category=FutureWarning)
import datasets  # noqa: E402
from datasets import load_dataset  # noqa: E402

datasets.logging.set_verbosity_error()
datasets.disable_progress_bars()


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def keys_of(v, path=""):
    """Every key path of v, lists looked into: the row's shape."""
    out = set()
    if isinstance(v, dict):
        for k, x in v.items():
            out.add(path + "." + k)
            out |= keys_of(x, path + "." + k)
    elif isinstance(v, list):
        for x in v:
            out |= keys_of(x, path + "[]")
    return out


def types_of(v, path="", out=None):
    """path -> set of JSON types (null left out)."""
    out = {} if out is None else out
    if isinstance(v, dict):
        for k, x in v.items():
            types_of(x, path + "." + k, out)
    elif isinstance(v, list):
        for x in v:
            types_of(x, path + "[]", out)
    elif v is not None:
        out.setdefault(path, set()).add(type(v).__name__)
    return out


def big(path):
    rows = [json.loads(l) for l in open(path)]
    shapes = {frozenset(keys_of(r)) for r in rows}
    # every row, direct or repair, has every key (lists of one shape)
    top = {frozenset(r.keys()) for r in rows}
    meta = {frozenset(r["meta"].keys()) for r in rows}
    if len(top) != 1 or len(meta) != 1:
        fail("rows differ in keys: %s / %s" % (top, meta))
    types = {}
    for r in rows:
        for k, v in types_of(r).items():
            types.setdefault(k, set()).update(v)
    mixed = {k: v for k, v in types.items() if len(v) > 1 and v != {"int", "float"}}
    if mixed:
        fail("a column with two types: %s" % mixed)
    kinds = {r["meta"]["kind"] for r in rows}
    if kinds != {"direct", "repair"}:
        fail("not a mixed export: %s" % kinds)
    if os.path.getsize(path) < (12 << 20):
        fail("%s is %d bytes: under two of datasets' 10 MiB chunks" % (path, os.path.getsize(path)))
    ds = load_dataset("json", data_files=path, split="train", cache_dir=CACHE + "/a")
    if len(ds) != len(rows):
        fail("datasets read %d rows of %d" % (len(ds), len(rows)))
    if ds.features["meta"]["parent"].dtype != "string":
        fail("meta.parent typed %s" % ds.features["meta"]["parent"])
    print("ok: %d rows (%d shapes of lists), %.1f MB, load_dataset('json') without options"
          % (len(rows), len(shapes), os.path.getsize(path) / 1e6))
    # The same rows with the repair (the first row, moved there by the
    # export) back after the direct rows: the first chunk then types
    # meta.parent null, and the load fails as it did before.
    naive = path + ".naive.jsonl"
    lines = open(path).readlines()
    if json.loads(lines[0])["meta"]["kind"] != "repair":
        fail("the export's first row is not the one that carries the repair's types")
    with open(naive, "w") as f:
        f.writelines(lines[1:] + lines[:1])
    try:
        load_dataset("json", data_files=naive, split="train", cache_dir=CACHE + "/b")
    except Exception as e:  # DatasetGenerationError from a cast
        print("ok: the direct rows first fail as before (%s)" % type(e).__name__)
    else:
        fail("the naive order loaded: the head test proves nothing")


def card_features(readme):
    from huggingface_hub import DatasetCard
    card = DatasetCard.load(readme)
    data = card.data
    if not data.license or not data.configs:
        fail("card metadata: license %r, configs %r" % (data.license, data.configs))
    infos = data.dataset_info if isinstance(data.dataset_info, list) else [data.dataset_info]
    feats = {i["config_name"]: datasets.Features._from_yaml_list(i["features"]) for i in infos}
    return card, feats


def check_folder(path, failing_ids, id_of, verified_of):
    card, feats = card_features(os.path.join(path, "README.md"))
    ds = load_dataset(path, cache_dir=CACHE + "/f")
    if sorted(ds.keys()) != ["test", "train"]:
        fail("splits %s, want train and test" % list(ds.keys()))
    for split, d in ds.items():
        if d.features != feats["default"]:
            fail("%s features differ from the card's" % split)
        bad = [id_of(r) for r in d if not verified_of(r) or id_of(r) in failing_ids]
        if bad:
            fail("failing samples in %s: %s" % (split, bad))
    f = load_dataset(path, "failing", cache_dir=CACHE + "/g")
    got = sorted(id_of(r) for s in f.values() for r in s)
    if got != sorted(failing_ids):
        fail("config failing holds %s, want %s" % (got, sorted(failing_ids)))
    if any(verified_of(r) for s in f.values() for r in s):
        fail("a verified row in config failing")
    print("ok: %s loads by its card: %s; failing %s; license %s"
          % (path, {k: len(v) for k, v in ds.items()}, got, card.data.license))


def folder(path, *failing):
    check_folder(path, list(failing), lambda r: r["meta"]["candidate"],
                 lambda r: r["meta"]["verified"])


def commit(path, *failing):
    check_folder(path, list(failing), lambda r: r["id"], lambda r: r["verified"])


# --- the tokens that carry loss -------------------------------------------

TEMPLATE = ("{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n"
            "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}")
PIECES = r"\w+|\s|[^\w\s]"


def tokenizer_for(texts):
    from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast
    specials = ["<unk>", "<pad>", "<|im_start|>", "<|im_end|>"]
    words = set(["system", "user", "assistant", "\n"])
    for t in texts:
        words.update(re.findall(PIECES, t))
    vocab = {w: i for i, w in enumerate(specials + sorted(words - set(specials)))}
    tk = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
    tk.pre_tokenizer = pre_tokenizers.Split(Regex(PIECES), behavior="isolated")
    tk.decoder = decoders.Fuse()    # the pieces hold their own spaces
    tk.add_special_tokens(specials)
    tok = PreTrainedTokenizerFast(tokenizer_object=tk, unk_token="<unk>", pad_token="<pad>",
                                  eos_token="<|im_end|>")
    tok.chat_template = TEMPLATE
    return tok


def ids(tok, msgs, gen=False):
    out = tok.apply_chat_template(msgs, tokenize=True, add_generation_prompt=gen, return_dict=True)
    return list(out["input_ids"])


def turn_tokens(tok, msgs, i):
    """The tokens of message i (an assistant turn) as the template lays
    it out: what it adds after the generation prompt before it."""
    before = ids(tok, msgs[:i], gen=True)
    upto = ids(tok, msgs[:i + 1])
    if upto[:len(before)] != before:
        fail("the template's prefix moved at message %d" % i)
    return upto[len(before):]


def only_final(tok, learnt, final_code, failed):
    text = tok.decode(learnt)
    if final_code not in text:
        fail("the final code is not learnt: %r" % text[:200])
    for f in failed:
        if f in text:
            fail("a failed attempt is learnt: %r" % f[:80])
    want = len(tok(final_code, add_special_tokens=False)["input_ids"])
    # the code plus the turn's end marker and newline
    if len(learnt) != want + 2:
        fail("%d tokens carry loss, want the final code's %d + 2" % (len(learnt), want))
    return len(learnt)


def rows_of(d):
    files = sorted(glob.glob(os.path.join(d, "data", "*.jsonl")))
    return [json.loads(l) for f in files for l in open(f)]


def texts_of(rows):
    out = []
    for r in rows:
        for k in ("messages", "prompt", "completion"):
            out += [m["content"] for m in r.get(k, [])]
    return out


def loss(targets, prefix, *failed_files):
    """For each of the comma-separated targets, the export in
    PREFIX<target> (one process: the libraries load once)."""
    for target in targets.split(","):
        loss_one(target, prefix + target, failed_files)


def loss_one(target, d, failed_files):
    failed = [open(f).read() for f in failed_files]
    rows = rows_of(d)
    if len(rows) != 1:
        fail("%s: %d rows, want the one repair" % (d, len(rows)))
    row = rows[0]
    tok = tokenizer_for(texts_of(rows))
    if target in ("assay", "openai", "incoder", "llamafactory"):
        msgs = row["messages"]
        final = msgs[-1]["content"]
    if target == "assay" or target == "openai":
        # OpenAI's convention: an assistant turn with weight 0 is not
        # learnt.  Its format checks (roles, keys, weights 0/1 on
        # assistant turns only, openai) hold.
        for m in msgs:
            allowed = {"role", "content", "weight"}
            if set(m) - allowed or m["role"] not in ("system", "user", "assistant"):
                fail("message keys %s" % sorted(m))
            if target == "openai" and m["role"] != "assistant" and "weight" in m:
                fail("weight on a %s turn" % m["role"])
            if m["role"] == "assistant" and m.get("weight") not in (0, 1):
                fail("weight %r" % m.get("weight"))
        if target == "openai" and set(row) != {"messages"}:
            fail("openai row keys %s" % sorted(row))
        learnt = [t for i, m in enumerate(msgs) if m["role"] == "assistant" and m["weight"] == 1
                  for t in turn_tokens(tok, msgs, i)]
        n = only_final(tok, learnt, final, failed)
        all_turns = sum(len(turn_tokens(tok, msgs, i)) for i, m in enumerate(msgs)
                        if m["role"] == "assistant")
        if all_turns <= n:
            fail("no failed turn to leave out")
        print("ok: %s: %d tokens carry loss (weight), of %d in assistant turns" % (target, n, all_turns))
    elif target == "incoder":
        # binarize_data.py: with only_last_turn_loss every message after
        # the system's but the last is masked (its markers aside), the
        # last (an assistant turn) is learnt.
        if row.get("only_last_turn_loss") is not True or msgs[0]["role"] != "system":
            fail("incoder row: %s" % sorted(row))
        body = msgs[1:]
        learnt = []
        for j, m in enumerate(body):
            last = j == len(body) - 1
            if m["role"] == "assistant" and (last or not row["only_last_turn_loss"]):
                learnt += turn_tokens(tok, msgs, j + 1)
        n = only_final(tok, learnt, final, failed)
        print("ok: incoder: %d tokens carry loss (only_last_turn_loss)" % n)
    elif target == "llamafactory":
        # LLaMA-Factory reads the file through dataset_info.json (sharegpt
        # with OpenAI-style tags) and, with mask_history, learns only the
        # last user/assistant pair's answer.
        info = json.load(open(os.path.join(d, "dataset_info.json")))
        args = open(os.path.join(d, "llamafactory_args.yaml")).read()
        if "mask_history: true" not in args:
            fail("llamafactory_args.yaml lacks mask_history")
        name = [k for k in info if not k.startswith("assay_failing")][0]
        a = info[name]
        if a["formatting"] != "sharegpt":
            fail("formatting %s" % a["formatting"])
        ds = load_dataset("json", data_files=os.path.join(d, a["file_name"]), split="train",
                          cache_dir=CACHE + "/l")
        tags, col = a["tags"], a["columns"]["messages"]
        conv = ds[0][col]
        if conv[0][tags["role_tag"]] == tags["system_tag"]:
            conv = conv[1:]
        roles = [m[tags["role_tag"]] for m in conv]
        want = [tags["user_tag"], tags["assistant_tag"]] * (len(conv) // 2)
        if roles != want:
            fail("sharegpt turns out of order: %s" % roles)
        pairs = len(conv) // 2
        learnt = turn_tokens(tok, msgs, len(msgs) - 1)   # mask_history: the last pair
        n = only_final(tok, learnt, final, failed)
        print("ok: llamafactory: %d pairs, %d tokens carry loss (mask_history)" % (pairs, n))
    elif target == "trl":
        learnt = trl_learnt(tok, rows)
        final = row["completion"][-1]["content"]
        if any(m["role"] == "assistant" and m["content"] == final for m in row["prompt"]):
            fail("the final code is in the prompt")
        n = only_final(tok, learnt, final, failed)
        print("ok: trl: %d tokens carry loss (SFTTrainer's prompt/completion labels and collator)" % n)
        # the stable rows' messages, read by TRL without --for trl, learn
        # the failed turns too: why the target exists
        msgs = [{"role": m["role"], "content": m["content"]} for m in row["prompt"] + row["completion"]]
        every = trl_learnt(tok, [{"messages": msgs}])
        if not any(f in tok.decode(every) for f in failed):
            fail("TRL on messages did not learn the failed code: the check is blind")
        print("ok: trl on plain messages learns %d tokens, failed code included" % len(every))
    else:
        fail("unknown target " + target)


def trl_learnt(tok, rows):
    from datasets import Dataset
    from transformers import GPT2Config, GPT2LMHeadModel
    from trl import SFTConfig, SFTTrainer
    model = GPT2LMHeadModel(GPT2Config(vocab_size=len(tok), n_positions=8192, n_embd=16,
                                       n_layer=2, n_head=2, bos_token_id=None,
                                       eos_token_id=tok.eos_token_id, pad_token_id=tok.pad_token_id))
    # the rows as exported, meta included
    cfg = SFTConfig(output_dir=tempfile.mkdtemp(dir=CACHE), report_to=[], max_length=8192,
                    per_device_train_batch_size=1, use_cpu=True)
    tr = SFTTrainer(model=model, args=cfg, train_dataset=Dataset.from_list(rows), processing_class=tok)
    if len(tr.train_dataset[0]["input_ids"]) >= cfg.max_length:
        fail("the row was cut at max_length")
    batch = tr.data_collator([tr.train_dataset[0]])
    labels = batch["labels"][0].tolist()
    input_ids = batch["input_ids"][0].tolist()
    return [i for i, l in zip(input_ids, labels) if l != -100]


if __name__ == "__main__":
    cmds = {"big": big, "folder": folder, "commit": commit, "loss": loss}
    if len(sys.argv) < 3 or sys.argv[1] not in cmds:
        fail(__doc__)
    cmds[sys.argv[1]](*sys.argv[2:])
