import readline from 'node:readline';
const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
// rl.question( in a comment
rl.question('Proceed? ', (a) => rl.close());
