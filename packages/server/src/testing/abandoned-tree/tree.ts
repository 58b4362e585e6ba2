import { fork } from 'node:child_process';

// A stand-in for a gateway's process tree: a parent and one forked child (as a primary and its worker),
// both running until killed. The parent prints both ids once the child is up.
if (process.argv[2] === 'child') {
  process.send?.('up');
} else {
  const child = fork(process.argv[1]!, ['child']);
  child.once('message', () => console.log(`tree ${process.pid} ${child.pid}`));
}
setInterval(() => undefined, 60_000);
