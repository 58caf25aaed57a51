console.log("built dist/");
