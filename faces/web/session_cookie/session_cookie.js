// Keeps the browser's sign-in session in an HttpOnly cookie: the page hands this frame the session's token (or ""
// to forget it), which it sends to the app's /_session route; the cookie itself is never readable by scripts.
(function () {
  function send(type, data) {
    window.parent.postMessage(Object.assign({ isStreamlitMessage: true, type: type }, data), "*");
  }
  var done = null;
  window.addEventListener("message", function (event) {
    if (event.source !== window.parent || !event.data || event.data.type !== "streamlit:render") return;
    var token = String((event.data.args || {}).token || "");
    if (done === token) return;
    done = token;
    fetch("/_session", {
      method: token ? "POST" : "DELETE",
      headers: { "Content-Type": "text/plain", "X-Session-Cookie": "1" },
      body: token,
      credentials: "same-origin",
    }).then(function (response) {
      send("streamlit:setComponentValue", { value: response.ok, dataType: "json" });
    });
  });
  send("streamlit:componentReady", { apiVersion: 1 });
  send("streamlit:setFrameHeight", { height: 0 });
})();
