# 120: the arm-qemu env (issue 4).  Imports examples/embedded, verifies
# every candidate through the sandbox with the real arm-none-eabi-gcc and
# QEMU, and checks each one's verdict, stage, category and subcategory:
# the references and one candidate per task pass; the others fail with a
# wrong UART text, a wrong register value, a HardFault, an undefined HAL
# function (api), a HAL type (api), a syntax error, a wait on a clock
# QEMU does not model (timeout, on the polling loop's line) and a wrong
# exit status.  A task with a bad env_params (an unknown or a modelled
# peripheral, a misspelt key) is refused with the field named, exit 2.
. "$(dirname "$0")/lib.sh"
command -v arm-none-eabi-gcc >/dev/null || skip "arm-none-eabi-gcc not installed (gcc-arm-none-eabi)"
command -v qemu-system-arm >/dev/null || skip "qemu-system-arm not installed"
EX=$(cd "$(dirname "$0")/../.." && pwd)/examples/embedded

"$ASSAY" --db "$DB" import "$EX"/*.jsonl || fail "import"
expect_eq "candidates" "$(count '')" 15
"$ASSAY" --db "$DB" verify --jobs 4 -q
[ $? -le 1 ] || fail "verify"

# row TASK ORIGIN: "verdict stage category subcategory" of that candidate.
row() {
	"$ASSAY" --db "$DB" list --json --where "task=embedded-demo/$1 origin=$2" |
	    sed -e 's/.*"verdict":\("[^"]*"\|null\).*"stage":\("[^"]*"\|null\).*/\1 \2/' \
	        -e 's/"//g' | head -n 1
}
cat_of() {
	"$ASSAY" --db "$DB" list --json --where "task=embedded-demo/$1 origin=$2" |
	    sed -e 's/.*"category":\("[^"]*"\|null\).*"subcategory":\("[^"]*"\|null\).*/\1 \2/' \
	        -e 's/"//g' | head -n 1
}
check() {	# TASK ORIGIN VERDICT STAGE CATEGORY SUBCATEGORY
	expect_eq "$1 $2 verdict" "$(row "$1" "$2")" "$3 $4"
	expect_eq "$1 $2 category" "$(cat_of "$1" "$2")" "$5 $6"
}
check uart_hello reference pass run null null
check uart_hello model-a pass run null null
check uart_hello model-b fail run functional uart-mismatch
check uart_hello model-c fail build api undefined-api-function
check uart_hello model-d fail build api unknown-api-name
check gpio_led reference pass run null null
check gpio_led model-a pass run null null
check gpio_led model-b fail run functional register-write
check gpio_led model-c fail run functional hardfault
check gpio_led model-d fail build api undefined-api-function
check gpio_led model-e fail build compile syntax-error
check usart2_config reference pass run null null
check usart2_config model-a fail run functional register-write
check usart2_config model-b timeout run functional timeout
check usart2_config model-c fail run functional exit-code

# The evidence a reviewer reads: the UART text, the register, the fault.
show() { "$ASSAY" --db "$DB" show "$("$ASSAY" --db "$DB" list --json --where "task=embedded-demo/$1 origin=$2" | sed 's/.*"id":"\([^"]*\)".*/\1/')"; }
show uart_hello model-b | grep -q 'got "Hello assay!\\n", expected "Hello, assay!\\r\\n"' || fail "uart evidence"
show gpio_led model-b | grep -q 'GPIOA offset 0x000 (MODER) ends as 0x00001000 after the writes that took effect, expected 0x00000400 (mask 0x00000c00)' || fail "register evidence"
show gpio_led model-c | grep -q 'evidence: assay: HardFault at pc 0x' || fail "hardfault evidence"
show gpio_led model-c | grep -q 'evidence points to candidate line 12' || fail "hardfault line"
show gpio_led model-d | grep -q "undefined reference to \`HAL_GPIO_WritePin'" || fail "api evidence"
show usart2_config model-b | grep -q 'reads RCC offset 0x000 (CR), which QEMU does not model' || fail "polling evidence"
show usart2_config model-b | grep -q 'evidence points to candidate line 6' || fail "the polling loop's line"
show uart_hello reference | grep -A1 '^uart 15 bytes$' | grep -q '^Hello, assay!' || fail "the UART output is in the log"

# The counterexamples: expected (-) against observed (+), as a diff.
show uart_hello model-b | grep -A3 '^Counterexample:' >"$T/cex-uart"
grep -qx 'UART, expected (-) against observed (+), from line 1:' "$T/cex-uart" &&
    grep -qx -- '- Hello, assay!' "$T/cex-uart" &&
    grep -qx -- '+ Hello assay!' "$T/cex-uart" ||
    fail "uart counterexample: $(cat "$T/cex-uart")"
show gpio_led model-b | grep -A3 '^Counterexample:' >"$T/cex-reg"
grep -qx 'register writes, expected (-) against observed (+):' "$T/cex-reg" &&
    grep -qx -- '- GPIOA+0x000 (MODER) = 0x00000400 (mask 0x00000c00)' "$T/cex-reg" &&
    grep -q -- '^+ GPIOA+0x000: [0-9]* writes\?, the last 0x[0-9a-f]*$' "$T/cex-reg" ||
    fail "register counterexample: $(cat "$T/cex-reg")"
show usart2_config model-c | grep -A3 '^Counterexample:' >"$T/cex-exit"
grep -qx 'exit status:' "$T/cex-exit" && grep -q '^- [0-9]*$' "$T/cex-exit" &&
    grep -q '^+ [0-9]*$' "$T/cex-exit" || fail "exit counterexample: $(cat "$T/cex-exit")"
id=$("$ASSAY" --db "$DB" list --json --where "task=embedded-demo/uart_hello origin=model-b" | sed 's/.*"id":"\([^"]*\)".*/\1/')
"$ASSAY" --db "$DB" show --json "$id" | jq -e '.runs[0].feedback.counterexample.uart
    | .expected == "Hello, assay!\r\n" and .observed == "Hello assay!\n"
    and .expected_bytes == 15 and .observed_bytes == 13 and .first_difference == 5' >/dev/null ||
    fail "uart counterexample's fields: $("$ASSAY" --db "$DB" show --json "$id" | jq -c '.runs[0].feedback')"
echo "ok: the UART, register and exit counterexamples are diffs of expected against observed"
# A second verify has nothing to do: the inputs did not change.
"$ASSAY" --db "$DB" verify -q 2>&1 | grep -q 'verified 0, unchanged 15' || fail "verify again"

# A mistake in env_params is the task's: verify names the task and the
# field, runs nothing and exits 2.
bad() {	# ID ENV_PARAMS
	printf '{"task": {"id": "local/%s", "benchmark": "local", "domain": "embedded", "env": "arm-qemu", "env_params": %s, "spec": "s"}, "candidate": {"origin": "m", "kind": "direct", "lang": "c", "code": "int main(void) { return 0; }\\n"}}\n' "$1" "$2" >"$T/$1.jsonl"
	"$ASSAY" --db "$DB" import "$T/$1.jsonl" >/dev/null || fail "import $1"
	"$ASSAY" --db "$DB" verify --where "task=local/$1" >"$T/$1.out" 2>&1
	expect_eq "$1 exit" "$?" 2
	grep -q "$3" "$T/$1.out" || { cat "$T/$1.out"; fail "$1 message"; }
	expect_eq "$1 runs" "$(count "task=local/$1 verdict=none")" 1
}
bad periph-gpioz '{"expect_writes": [{"periph": "GPIOZ", "offset": 0, "value": 1}]}' \
    'task local/periph-gpioz: env_params.expect_writes\[0\]: "periph" GPIOZ is no peripheral'
bad periph-usart1 '{"expect_writes": [{"periph": "USART1", "offset": 8, "value": 139}]}' \
    '"periph" USART1 is modelled by QEMU, so its writes never appear'
bad key-typo '{"expect_exitt": 0}' \
    'env_params: unknown key "expect_exitt" for arm-qemu (known: expect_exit, '
echo "ok: arm-qemu examples"
