const proceed = process.argv.includes('--yes');
console.log(proceed ? 'deploying' : 'pass --yes to deploy');
