/** Response time colours: 0 untested grey, ≤1 s green, ≤3 s lime, ≤5 s yellow, beyond red. */
export function responseTimeColour(milliseconds: number): string {
  if (!milliseconds) return 'default';
  if (milliseconds <= 1000) return 'green';
  if (milliseconds <= 3000) return 'lime';
  if (milliseconds <= 5000) return 'gold';
  return 'red';
}
