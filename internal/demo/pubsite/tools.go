package pubsite

// toolsPage offers two tools to agents with the WebMCP API
// (document.modelContext.registerTool in Chromium, navigator.modelContext
// in the explainer): a read-only search, and an add-to-cart that acts (it
// POSTs to the site). Where the browser has no API, the page does
// nothing: it does not polyfill.
const toolsPage = `<!doctype html><html><head><title>Tools</title></head><body>
<h1>Lamp finder</h1>
<p id="status">no tools</p>
<script>
const mc = document.modelContext || navigator.modelContext;
if (mc && mc.registerTool) {
  mc.registerTool({
    name: "search_products",
    description: "Search the lamps and chairs by words.",
    inputSchema: {type: "object", properties: {query: {type: "string"}}, required: ["query"]},
    annotations: {readOnlyHint: true},
    execute: async ({query}) => {
      const names = ["Desk lamp", "Floor lamp", "Oak chair"].filter(n => n.toLowerCase().includes(String(query).toLowerCase()));
      return {content: [{type: "text", text: JSON.stringify(names)}]};
    },
  });
  mc.registerTool({
    name: "add_to_cart",
    description: "Add a product to the cart.",
    inputSchema: {type: "object", properties: {handle: {type: "string"}, quantity: {type: "integer"}}, required: ["handle"]},
    execute: async ({handle, quantity}) => {
      const r = await fetch("/tools/cart", {method: "POST", body: JSON.stringify({handle, quantity})});
      return {content: [{type: "text", text: "added " + handle}]};
    },
  });
  document.getElementById("status").textContent = "2 tools";
}
</script>
</body></html>`
