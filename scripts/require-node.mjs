// Runs before every npm script that starts TypeScript: plain JavaScript, so an older Node (which cannot
// load .ts files at all) prints this one line instead of a stack trace about file extensions.
const required = 24;
const major = Number(process.versions.node.split('.')[0]);
if (major < required) {
  console.error(
    `Switchboard needs Node ${required} or newer (this is ${process.version}): run "npm ci" first, which installs the pinned Node 24, then use the npm scripts.`,
  );
  process.exit(1);
}
