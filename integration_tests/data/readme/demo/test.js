const args = process.argv.slice(2);
console.log(`tests: ${args.length ? args.join(" ") : "all"}`);
console.log("3 passed");
