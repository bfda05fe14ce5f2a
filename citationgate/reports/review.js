(function(){
  function cites(m){return (m.getAttribute('data-cites')||'').split(' ');}
  var marks=Array.prototype.slice.call(document.querySelectorAll('mark.hl'));
  document.querySelectorAll('button.goto').forEach(function(b){
    b.addEventListener('click',function(){
      var key=b.getAttribute('data-target').slice(3);
      var el=document.getElementById(b.getAttribute('data-target'));
      marks.forEach(function(m){m.classList.toggle('flash',cites(m).indexOf(key)>=0);});
      if(el){el.scrollIntoView({block:'center'});}
    });
  });
  marks.forEach(function(m){
    m.addEventListener('click',function(){
      var fid=cites(m)[0].replace(/-[0-9]+$/,'');
      var li=document.getElementById('f-'+fid);
      if(li){li.scrollIntoView({block:'center'});li.focus({preventScroll:true});}
    });
  });
  function apply(){
    var off={};
    document.querySelectorAll('input.flt').forEach(function(i){
      if(!i.checked){off[i.getAttribute('data-kind')+':'+i.value]=true;}
    });
    var hidden={};
    document.querySelectorAll('li.finding').forEach(function(li){
      var h=off['severity:'+li.getAttribute('data-severity')]||off['status:'+li.getAttribute('data-status')];
      li.classList.toggle('li-hidden',!!h);
      if(h){hidden[li.id.slice(2)]=true;}
    });
    marks.forEach(function(m){
      var shown=cites(m).some(function(k){return !hidden[k.replace(/-[0-9]+$/,'')];});
      m.classList.toggle('hidden',!shown);
    });
  }
  document.querySelectorAll('input.flt').forEach(function(i){i.addEventListener('change',apply);});
})();
