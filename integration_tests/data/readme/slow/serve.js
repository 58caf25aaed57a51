console.log("listening on :8080");
setTimeout(() => {}, 60000);
