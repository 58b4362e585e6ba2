/**
 * A bench script's `--name=value` and bare `--flag` arguments, by name (`--flag` reads as 'yes'):
 * `scriptOptions(process.argv.slice(2)).get('--runs')`. For the one-file scripts (micro-benchmarks,
 * bench:instructions); `npm run bench` has its own checked options (run-options.ts).
 */
export function scriptOptions(argv: readonly string[]): Map<string, string> {
  return new Map(argv.map((arg) => [arg.replace(/=.*/, ''), arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : 'yes']));
}
