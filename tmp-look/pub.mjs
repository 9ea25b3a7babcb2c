import { chromium } from 'playwright';
const B='http://127.0.0.1:4481';
const R=B+'/public/report/mDjh_5re545yLEUddv63mACM?tempScale=F&timezone=UTC';
const browser=await chromium.launch({executablePath:'/usr/lib/chromium/chromium-headless-shell'});
async function ctx(w,slow){
  const c=await browser.newContext(w===390?{viewport:{width:390,height:844},isMobile:true,hasTouch:true,deviceScaleFactor:2}:{viewport:{width:1280,height:900}});
  const p=await c.newPage();
  if(slow){const s=await c.newCDPSession(p);await s.send('Network.enable');await s.send('Network.emulateNetworkConditions',{offline:false,latency:400,downloadThroughput:50000,uploadThroughput:50000});}
  return [c,p];
}
for (const w of [390,1280]) {
  const [c,p]=await ctx(w,true);
  const t0=Date.now(); const shots=[];
  p.goto(R).catch(e=>console.log('goto',e.message));
  for (const ms of [1500,3000,6000,10000]) { await p.waitForTimeout(ms-(Date.now()-t0)>0?ms-(Date.now()-t0):0); await p.screenshot({path:`/tmp/look/pub-slow-${w}-${ms}.png`}).catch(()=>{}); console.log(w,'slow',ms, (await p.evaluate(()=>document.body?document.body.innerText.slice(0,200).replace(/\n/g,' | '):'(no body)').catch(e=>'ERR')));}
  await p.waitForLoadState('load',{timeout:60000}).catch(()=>{}); console.log(w,'load at',Date.now()-t0);
  await p.waitForLoadState('networkidle',{timeout:60000}).catch(()=>{}); console.log(w,'idle at',Date.now()-t0);
  await c.close();
  const [c2,p2]=await ctx(w,false);
  await p2.goto(R,{waitUntil:'networkidle'});
  await p2.screenshot({path:`/tmp/look/pub-${w}-full.png`,fullPage:true});
  const ov=await p2.evaluate(()=>({sw:document.documentElement.scrollWidth,cw:document.documentElement.clientWidth, wide:[...document.querySelectorAll('body *')].filter(e=>e.getBoundingClientRect().right>document.documentElement.clientWidth+1).slice(0,8).map(e=>e.tagName+'.'+e.className.toString().slice(0,40))}));
  console.log(w,'overflow',JSON.stringify(ov));
  if(w===390) console.log(await p2.evaluate(()=>document.body.innerText.slice(0,4000)));
  await c2.close();
}
await browser.close();
